// The rollback of this process's own create is not reported: the lock is
// created in the try, its owner record written into it; when that write
// fails, the catch removes the lock only if the create returned (the
// descriptor is set). Nobody can have judged and retaken a lock made a moment
// ago. The module breaks the lock elsewhere, on its owner's death, with a
// separate read-compare: that removal (removeStale) is reported.
import * as fs from "node:fs";
import { randomUUID } from "node:crypto";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e.code === "EPERM";
  }
}

export function tryAcquire(lockPath: string): string | null {
  const token = randomUUID();
  let fd: number | null = null;
  try {
    fd = fs.openSync(lockPath, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
    fs.writeFileSync(fd, JSON.stringify({ pid: process.pid, token }));
    fs.closeSync(fd);
    return token;
  } catch (error) {
    if (fd !== null) {
      fs.closeSync(fd);
      fs.rmSync(lockPath, { force: true });
    }
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    removeStale(lockPath);
    return null;
  }
}

export function removeStale(lockPath: string): boolean {
  const before = fs.readFileSync(lockPath, "utf8");
  const rec = JSON.parse(before);
  if (alive(rec.pid) || fs.readFileSync(lockPath, "utf8") !== before) return false;
  fs.rmSync(lockPath, { force: true });
  return true;
}
