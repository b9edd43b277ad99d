// The probe's catch falls through: a successful probe returns, so the code
// after the try runs on every error, EPERM included, and removes the lock of
// a live owner of another user.
import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from "node:fs";

export function acquire(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch {
    return false;
  }
}

export function reapIfDead(lockPath: string): void {
  const pid = parseInt(readFileSync(lockPath, "utf8"), 10);
  try {
    try {
      process.kill(pid, 0);
      return;
    } catch {
      console.log(`owner ${pid} gone`);
    }
  } catch {
    return;
  }
  unlinkSync(lockPath);
}
