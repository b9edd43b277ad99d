"use strict";
// Driver: every worker writes one JSON document through writeJson(); a throw is a lost write.
exports.setup = (mod) => { mod.ensureDir(); };
exports.op = (mod, ctx, i) => { mod.writeJson("employees.json", { worker: ctx.worker, i, pad: "x".repeat(4096) }); };
exports.check = (mod, ctx) => {
  const doc = mod.readJson("employees.json", null);
  const want = ctx.procs * ctx.ops;
  return { kept: want, want, final_ok: doc !== null && typeof doc.worker === "number" };
};
