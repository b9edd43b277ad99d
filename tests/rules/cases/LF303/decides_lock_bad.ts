// Probes whose verdict decides a lock: EPERM (a live holder of another user)
// read as "dead" breaks a lock that is held.
import { openSync, closeSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";

// Returned to the module's acquire, which takes the lock over on "dead".
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function acquirePidFile(pidFile: string): void {
  try {
    closeSync(openSync(pidFile, "wx"));
  } catch {
    const pid = Number(readFileSync(pidFile, "utf8"));
    if (isProcessAlive(pid)) throw new Error("already running: " + pid);
  }
  writeFileSync(pidFile, String(process.pid));
}

// Exported, called from nowhere here: it answers about the lock's owner,
// read from the pid record, for callers elsewhere.
export function ownerAlive(pidFile: string): boolean {
  const pid = Number(readFileSync(pidFile, "utf8"));
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// The probe's own function removes the lock.
export function reclaim(pidFile: string): void {
  const pid = Number(readFileSync(pidFile, "utf8"));
  try {
    process.kill(pid, 0);
  } catch {
    unlinkSync(pidFile);
  }
}
