"use strict";
// Driver: acquireLock / critical section / releaseLock, one lock path shared by every worker.
const fs = require("fs");
const path = require("path");
const lockPath = (ctx) => path.join(ctx.work, "locks", "state.lock");
exports.setup = (mod, ctx) => { fs.mkdirSync(path.dirname(lockPath(ctx)), { recursive: true }); };
exports.op = async (mod, ctx) => {
  const got = await mod.acquireLock(lockPath(ctx));
  if (!got) { ctx.skip(); return; }
  try { ctx.critical(); } finally { await mod.releaseLock(got); }
};
