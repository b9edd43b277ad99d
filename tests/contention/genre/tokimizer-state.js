"use strict";
// Driver: every worker writes the file map through writeFileMap(); a throw is a lost write.
const fs = require("fs");
const path = require("path");
const dir = (ctx) => path.join(ctx.work, "state");
exports.setup = (mod, ctx) => { fs.mkdirSync(dir(ctx), { recursive: true }); };
exports.op = (mod, ctx, i) => { mod.writeFileMap(dir(ctx), { worker: ctx.worker, i, pad: "x".repeat(4096) }); };
exports.check = (mod, ctx) => {
  let doc = null;
  try { doc = mod.readFileMap(dir(ctx)); } catch { doc = null; }
  const want = ctx.procs * ctx.ops;
  return { kept: want, want, final_ok: doc !== null && typeof doc.worker === "number" };
};
