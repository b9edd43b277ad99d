// A lock handle made once by the mutex, with the lock's path: its constructor
// keeps the path in a Symbol-keyed field, and its release removes it by name.
// The mutex breaks that lock on age (line 37), so the handle's release deletes
// a successor's lock when its holder was paused past the limit (line 20).
import { promises as fs } from "fs";

const kLockPath = Symbol("kLockPath");

class LockHandle {
  readonly [kLockPath]: string;
  private released = false;

  constructor(lockPath: string, readonly owner: string) {
    this[kLockPath] = lockPath;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await fs.rmdir(this[kLockPath]);
  }
}

export class DirMutex {
  constructor(private readonly dir: string, private readonly staleMs = 10_000) {}

  async acquire(owner: string): Promise<LockHandle> {
    for (;;) {
      try {
        await fs.mkdir(this.dir);
        return new LockHandle(this.dir, owner);
      } catch (e: any) {
        if (e.code !== "EEXIST") throw e;
      }
      const st = await fs.stat(this.dir);
      if (st.mtimeMs < Date.now() - this.staleMs) {
        await fs.rmdir(this.dir);
      }
    }
  }
}
