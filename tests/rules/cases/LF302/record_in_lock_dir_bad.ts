// The owner record lives inside the lock directory (`<lock>/owner.json`).
// Its recorded time is read back through a result-object wrapper and the
// lock is judged stale by that age alone. The `result` declared in the inner
// block is a different binding from the one the age is read from.
import * as path from "node:path";
import fsx from "@acme/fs-extra-plus/async";

export class OwnedDirLock {
  private readonly lockDir: string;
  private readonly ownerFile: string;

  constructor(root: string) {
    this.lockDir = path.join(root, "work.lock");
    this.ownerFile = path.join(this.lockDir, "owner.json");
  }

  async tryTake(staleMs: number): Promise<boolean> {
    const made = await fsx.mkdir(this.lockDir);
    if (!made.fails) {
      await fsx.writeJSON(this.ownerFile, { pid: process.pid, ts: Date.now() });
      return true;
    }
    if (made.error.code !== "EEXIST") {
      throw made.error;
    }
    if (await this.isStale(staleMs)) {
      await fsx.remove(this.lockDir);
    }
    return false;
  }

  private async isStale(staleMs: number): Promise<boolean> {
    const result = await fsx.readJSON(this.ownerFile);
    if (result.fails) {
      const result = await fsx.pathExists(this.lockDir);
      return !result.value;
    }
    return typeof result.value.ts === "number" && Date.now() - result.value.ts > staleMs;
  }
}
