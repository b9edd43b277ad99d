// A lock directory taken through an fs wrapper that returns its failures as
// values (`{ fails, error, value }`) instead of throwing them. The mkdir is
// still an exclusive create whose EEXIST the caller tests, so the directory
// is a lock; the stale break and the release both remove it by name.
import * as path from "node:path";
import fsx from "@acme/fs-extra-plus/async";

const STALE_MS = 60_000;

export class DirLock {
  private readonly lockDir: string;
  private readonly infoFile: string;
  private held = false;

  constructor(root: string, name: string) {
    this.lockDir = path.join(root, `${name}.lock`);
    this.infoFile = path.join(this.lockDir, "info.json");
  }

  async acquire(): Promise<boolean> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const made = await fsx.mkdir(this.lockDir);
      if (!made.fails) {
        await fsx.writeJSON(this.infoFile, { pid: process.pid, at: Date.now() });
        this.held = true;
        return true;
      }
      if (made.error.code !== "EEXIST") {
        return false;
      }
      const st = await fsx.stat(this.lockDir);
      if (!st.fails && Date.now() - st.value.mtimeMs > STALE_MS) {
        await fsx.remove(this.lockDir);
        continue;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }

  async release(): Promise<void> {
    if (!this.held) {
      return;
    }
    await fsx.remove(this.lockDir);
    this.held = false;
  }
}
