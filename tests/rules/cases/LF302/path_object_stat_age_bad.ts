// A lock file behind a small path class (`Path.from(p)`, its `stat()`), made
// by a static factory that hands the path to the lock object it returns.
// Waiters judge the lock stale by the age of its mtime alone and delete it: a
// holder that is merely paused loses it. The holder's release then removes the
// lock by name, whoever holds it by then.
import * as fs from "node:fs/promises";
import { Path } from "./pathlib";

export class LockHandle {
  public readonly path: Path;

  constructor(lockPath: string) {
    this.path = Path.from(lockPath);
  }

  public static async acquire(lockPath: string, staleMs: number): Promise<LockHandle> {
    const where = Path.from(lockPath);
    for (;;) {
      try {
        const handle = await fs.open(where.toString(), "wx");
        await handle.close();
        return new LockHandle(lockPath);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const stats = await where.stat();
        if (Date.now() - stats.mtimeMs >= staleMs) {
          await fs.rm(where.toString(), { force: true });
          continue;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  public async release(): Promise<void> {
    await fs.rm(this.path.toString(), { force: true });
  }
}
