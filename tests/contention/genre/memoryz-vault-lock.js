"use strict";
// Driver: VaultLock.withLock("state", critical section of 33 s), a wait of up to 120 s, one vault shared by every worker.
const path = require("path");
exports.op = async (mod, ctx) => {
  const vault = new mod.VaultLock(path.join(ctx.work, "vault"));
  await vault.init();
  await vault.withLock("state", async () => ctx.critical(33000), 120000);
};
