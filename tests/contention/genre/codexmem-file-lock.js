"use strict";
// Driver: withFileLock(state file, critical section of 120 ms, { staleMs: 50 }), one file shared by every worker.
const path = require("path");
exports.op = async (mod, ctx) => {
  await mod.withFileLock(path.join(ctx.work, "state.json"), async () => ctx.critical(120),
                         { staleMs: 50, retryDelayMs: 5, timeoutMs: 600000 });
};
