// JS, no types: the release removes `handle.path`, and every call of the
// release passes what tryAcquire returns, `{ fd, path: lockPath }`: the lock
// tryAcquire creates. The module breaks that lock on age (line 15), so a
// holder paused past the limit releases its successor's lock (line 30).
import { closeSync, openSync, statSync, unlinkSync } from "node:fs";

function tryAcquire(lockPath) {
  try {
    const fd = openSync(lockPath, "wx");
    return { fd, path: lockPath };
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
    if (Date.now() - statSync(lockPath).mtimeMs > 30_000) {
      try {
        unlinkSync(lockPath);
      } catch {
        /* another breaker was first */
      }
    }
    return null;
  }
}

function release(handle) {
  try {
    closeSync(handle.fd);
  } catch {
    /* already closed */
  }
  unlinkSync(handle.path);
}

export function withLock(lockPath, fn) {
  const handle = tryAcquire(lockPath);
  if (!handle) return false;
  try {
    fn();
  } finally {
    release(handle);
  }
  return true;
}
