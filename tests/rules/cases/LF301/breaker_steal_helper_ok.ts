// The breakers' lock taken through the module's own helper, which returns
// its path or null: the caller gives up on null, then judges the lock again
// under it before the removal.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

const LOCK = "/tmp/repair.lock";
const STEAL = "/tmp/repair.lock.steal";

function tryAcquireSteal(): string | null {
  try {
    mkdirSync(STEAL);
    return STEAL;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return null;
  }
}

function ownerPid(): number {
  return Number(readFileSync(`${LOCK}/pid`, "utf8"));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function acquire(): boolean {
  try {
    mkdirSync(LOCK);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return false;
  }
}

export function tryAcquireRepairLock(): boolean {
  if (acquire()) return true;
  if (alive(ownerPid())) return false;
  const steal = tryAcquireSteal();
  if (!steal) return false;
  try {
    if (!existsSync(LOCK) || alive(ownerPid())) return false;
    rmSync(LOCK, { recursive: true, force: true });
    return acquire();
  } finally {
    rmSync(steal, { recursive: true, force: true });
  }
}
