"use strict";
// Driver: withFileLock(state file, critical section of 100 ms), one file shared by every worker.
const path = require("path");
exports.op = async (mod, ctx) => {
  await mod.withFileLock(path.join(ctx.work, "state.json"), async () => ctx.critical(100));
};
