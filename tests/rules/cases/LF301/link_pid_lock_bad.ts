// A lock taken by hard-linking a written temp onto the lock path (EEXIST
// handled): the file appears with the owner's pid in it. The module reads it
// back and probes the pid, so the path is a lock; its stale takeover renames
// it away by name after a look, and its release reads then removes by name.
import fs from "node:fs";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e.code === "EPERM";
  }
}

function tryCreate(lockPath: string): boolean {
  const tmp = `${lockPath}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, String(process.pid));
    fs.linkSync(tmp, lockPath);
    return true;
  } catch (e: any) {
    if (e.code === "EEXIST") return false;
    throw e;
  } finally {
    try {
      fs.unlinkSync(tmp);
    } catch {}
  }
}

export function acquire(lockPath: string): boolean {
  if (tryCreate(lockPath)) return true;
  const holder = Number(fs.readFileSync(lockPath, "utf8"));
  if (alive(holder)) return false;
  fs.statSync(lockPath);
  fs.renameSync(lockPath, `${lockPath}.stale.${process.pid}`);
  return tryCreate(lockPath);
}

export function release(lockPath: string): void {
  if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
}
