// The same handle, made in two places with two different paths: what its
// field holds is no longer one lock's path, so its release is not tied to the
// lock the mutex breaks, and nothing is reported for it (only the break, line 36).
import { promises as fs } from "fs";

const kLockPath = Symbol("kLockPath");

class LockHandle {
  readonly [kLockPath]: string;

  constructor(lockPath: string) {
    this[kLockPath] = lockPath;
  }

  async release(): Promise<void> {
    await fs.rmdir(this[kLockPath]);
  }
}

export function scratch(dir: string): LockHandle {
  return new LockHandle(dir + "/scratch");
}

export class DirMutex {
  constructor(private readonly dir: string, private readonly staleMs = 10_000) {}

  async acquire(): Promise<LockHandle> {
    for (;;) {
      try {
        await fs.mkdir(this.dir);
        return new LockHandle(this.dir);
      } catch (e: any) {
        if (e.code !== "EEXIST") throw e;
      }
      const st = await fs.stat(this.dir);
      if (st.mtimeMs < Date.now() - this.staleMs) await fs.rmdir(this.dir);
    }
  }
}
