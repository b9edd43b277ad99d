// An isStale whose probe's catch is empty: a successful probe answers
// "not stale", and every error falls through, out of the `if` and the
// enclosing try, to `return true`. EPERM (a live owner of another user)
// then reads as stale, and the caller breaks the lock.
import { openSync, readFileSync, unlinkSync, writeSync, constants } from "node:fs";

function isStale(lockPath) {
  try {
    const rec = JSON.parse(readFileSync(lockPath, "utf8"));
    if (rec.pid) {
      try { process.kill(rec.pid, 0); return false; } catch { /* gone */ }
    }
  } catch { /* unreadable */ }
  return true;
}

export function tryAcquire(lockPath) {
  try {
    const fd = openSync(lockPath, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
    writeSync(fd, JSON.stringify({ pid: process.pid }));
    return fd;
  } catch (err) {
    if (err && err.code === "EEXIST" && isStale(lockPath)) {
      try { unlinkSync(lockPath); } catch { /* already gone */ }
    }
    return null;
  }
}
