"use strict";
// Driver: lockCreate (retried, as a restarting daemon would) / critical section / lockDelete.
exports.op = (mod, ctx) => {
  for (let t = 0; t < 5000; t++) {
    if (mod.lockCreate()) {
      try { ctx.critical(); } finally { mod.lockDelete(); }
      return;
    }
    ctx.sleepSync(1);
  }
  ctx.skip();
};
