// The lock's age is read only when its owner record could not be read or
// parsed (its holder died before writing it, or is writing it now): a holder
// with a record is judged by whether its pid is alive, never by this age.
import * as fs from "node:fs";
import * as path from "node:path";

const GRACE_MS = 2000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function lockAgeMs(lockPath: string): number | null {
  try {
    return Date.now() - fs.statSync(lockPath).mtimeMs;
  } catch {
    return null;
  }
}

// The age comes from a helper, called only in the handler of the failed read.
export function fileLockHeld(lockPath: string): boolean {
  try {
    const owner = JSON.parse(fs.readFileSync(lockPath, "utf8")) as { pid: number };
    return alive(owner.pid);
  } catch {
    const age = lockAgeMs(lockPath);
    return age !== null && age <= GRACE_MS;
  }
}

// The age in the handler itself (a directory lock with an owner file).
export function dirLockHeld(lockDir: string): boolean {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(lockDir, "owner"), "utf8")) as { pid: number };
    if (owner !== null) return alive(owner.pid);
  } catch {
    try {
      return Date.now() - fs.statSync(lockDir).mtimeMs < GRACE_MS;
    } catch {
      return false;
    }
  }
  return false;
}

export function acquire(lockPath: string): boolean {
  try {
    fs.writeFileSync(lockPath, JSON.stringify({ pid: process.pid }), { flag: "wx" });
    return true;
  } catch {
    if (fileLockHeld(lockPath)) return false;
    fs.unlinkSync(lockPath);
    return acquire(lockPath);
  }
}

export function acquireDir(lockDir: string): boolean {
  try {
    fs.mkdirSync(lockDir);
    fs.writeFileSync(path.join(lockDir, "owner"), JSON.stringify({ pid: process.pid }));
    return true;
  } catch {
    if (dirLockHeld(lockDir)) return false;
    fs.rmSync(lockDir, { recursive: true, force: true });
    return acquireDir(lockDir);
  }
}
