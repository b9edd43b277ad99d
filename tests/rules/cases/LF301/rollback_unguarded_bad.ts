// The same catch without the test of the create's result: when the create
// itself fails with EEXIST, the lock is someone else's, and the catch removes
// it by name (a takeover judged on its existence alone).
import * as fs from "node:fs";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e.code === "EPERM";
  }
}

export function tryAcquire(lockPath: string, force: boolean): boolean {
  let fd: number | null = null;
  try {
    fd = fs.openSync(lockPath, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
    fs.writeFileSync(fd, String(process.pid));
    fs.closeSync(fd);
    return true;
  } catch (error) {
    if (force) {
      fs.rmSync(lockPath, { force: true });
    }
    return false;
  }
}

export function removeStale(lockPath: string): boolean {
  const before = fs.readFileSync(lockPath, "utf8");
  const rec = JSON.parse(before);
  if (alive(rec.pid) || fs.readFileSync(lockPath, "utf8") !== before) return false;
  fs.rmSync(lockPath, { force: true });
  return true;
}
