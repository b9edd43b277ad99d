// The probe's verdict goes through `some` back to a function that breaks
// the lock when no recorded owner is alive: EPERM read as dead removes a
// live owner's lock.
import { readFileSync, rmSync, writeFileSync } from "node:fs";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function acquire(lockPath: string): boolean {
  try {
    writeFileSync(lockPath, JSON.stringify({ owners: [process.pid] }), { flag: "wx" });
    return true;
  } catch {
    const { owners } = JSON.parse(readFileSync(lockPath, "utf8")) as { owners: number[] };
    if (!owners.some((pid) => isAlive(pid))) {
      rmSync(lockPath, { force: true });
      return acquire(lockPath);
    }
    return false;
  }
}
