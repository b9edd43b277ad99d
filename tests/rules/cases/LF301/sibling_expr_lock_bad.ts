// A cache's locks, one per name: `join(LOCKS_DIR, name)` spelled again in
// each method over its own `name` parameter. acquireLock creates it
// exclusively, so it is a lock in isLocked and releaseLock too (the API's
// callers pass the same name to all three). isLocked breaks it after judging
// the recorded pid dead (line 20), and releaseLock removes it by name in a
// module that breaks it (line 38).
import * as fs from "node:fs";
import * as path from "node:path";

export class CacheLocks {
  private static readonly LOCKS_DIR = "/tmp/cache/locks";

  static isLocked(name: string): boolean {
    const lockFile = path.join(this.LOCKS_DIR, name);
    try {
      process.kill(parseInt(fs.readFileSync(lockFile, "utf8"), 10), 0);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ESRCH") {
        fs.unlinkSync(lockFile);
        return false;
      }
      return true;
    }
  }

  static acquireLock(name: string): boolean {
    const lockFile = path.join(this.LOCKS_DIR, name);
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      return true;
    } catch {
      return false;
    }
  }

  static releaseLock(name: string): void {
    fs.rmSync(path.join(this.LOCKS_DIR, name), { force: true });
  }
}
