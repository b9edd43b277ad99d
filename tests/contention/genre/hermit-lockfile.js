"use strict";
// Driver: acquireLock (retried, as a caller would) / critical section / releaseLock.
const fs = require("fs");
const path = require("path");
const lockPath = (ctx) => path.join(ctx.work, "locks", ".lifecycle.lock");
exports.setup = (mod, ctx) => { fs.mkdirSync(path.dirname(lockPath(ctx)), { recursive: true }); };
exports.op = (mod, ctx) => {
  for (let t = 0; t < 5000; t++) {
    if (mod.acquireLock(lockPath(ctx))) {
      try { ctx.critical(); } finally { mod.releaseLock(lockPath(ctx)); }
      return;
    }
    ctx.sleepSync(1);
  }
  ctx.skip();
};
