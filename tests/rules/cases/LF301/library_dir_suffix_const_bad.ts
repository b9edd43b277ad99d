// proper-lockfile, loaded through createRequire behind a factory that an
// option may replace, keeps the lock of `lock(file)` as the directory
// `${file}.lock`, here spelled with a const suffix. Stealing it by name
// after judging its recorded holder gone deletes whichever process's lock
// the directory is by then.
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
export const LOCK_DIR_SUFFIX = ".lock";

interface Lockfile {
  lock(file: string, options: { realpath: boolean; retries: number }): Promise<() => Promise<void>>;
}

function defaultLockfile(): Lockfile {
  return require("proper-lockfile") as Lockfile;
}

function holderGone(lockPath: string): boolean {
  try {
    process.kill(Number(readFileSync(lockPath, "utf8")), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export async function acquire(lockPath: string, options: { lockfile?: Lockfile } = {}) {
  const lockfile = options.lockfile ?? defaultLockfile();
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await lockfile.lock(lockPath, { realpath: false, retries: 0 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ELOCKED" || !holderGone(lockPath)) throw err;
      rmSync(`${lockPath}${LOCK_DIR_SUFFIX}`, { recursive: true, force: true });
    }
  }
  throw new Error("busy");
}
