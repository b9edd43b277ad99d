// The exported removal helper is also the holder's release in this file:
// `withLock` takes the lock with an exclusive create and releases it through
// `releaseLock`, and `acquire` breaks a lock it judged dead through the same
// helper. The helper's removal by name is the root bug (a holder paused past
// the judgement deletes its successor's lock), reported once, inside it; the
// takeover's call of it is that bug again.
import { openSync, closeSync, readFileSync, unlinkSync, writeSync } from "node:fs";

export function releaseLock(lockPath: string): void {
  try {
    unlinkSync(lockPath);
  } catch {
    // already gone
  }
}

function holderAlive(lockPath: string): boolean {
  try {
    const pid = Number(readFileSync(lockPath, "utf8"));
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function acquire(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch {
    if (!holderAlive(lockPath)) releaseLock(lockPath);
    return false;
  }
}

export function withLock<T>(lockPath: string, work: () => T): T | undefined {
  const fd = openSync(lockPath, "wx");
  writeSync(fd, String(process.pid));
  closeSync(fd);
  try {
    return work();
  } finally {
    releaseLock(lockPath);
  }
}

export function tryOnce(lockPath: string): boolean {
  return acquire(lockPath);
}
