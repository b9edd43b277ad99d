// Look-alikes of a rollback that are releases: the lock is removed after the
// critical section ran (in a catch, or in the error branch of a callback of
// the work), in a module that breaks the lock on age. A holder paused in the
// work past the staleness limit deletes its successor's lock.
import * as fs from "node:fs";

const STALE_MS = 10_000;

export function breakStale(lockDir: string): void {
  const st = fs.statSync(lockDir);
  if (Date.now() - st.mtimeMs > STALE_MS) fs.rmdirSync(lockDir);
}

export async function runLocked(lockDir: string, work: () => Promise<void>): Promise<void> {
  fs.mkdirSync(lockDir);
  try {
    await work();
  } catch (err) {
    fs.rmdirSync(lockDir);
    throw err;
  }
  fs.rmdirSync(lockDir);
}

export function runLockedCallback(lockDir: string, work: (cb: (e: Error | null) => void) => void,
                                  done: (e: Error | null) => void): void {
  fs.mkdir(lockDir, (err) => {
    if (err) return done(err);
    work((workErr) => {
      if (workErr) {
        fs.rmdir(lockDir, () => {});
        return done(workErr);
      }
      fs.rmdir(lockDir, done);
    });
  });
}
