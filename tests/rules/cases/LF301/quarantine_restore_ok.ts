// A break by quarantine: the lock directory is renamed aside to a unique
// name, what was moved is checked against what was judged, and a lock that
// changed hands in between is renamed back. Only the moved object's check
// decides its removal: not a removal by name of whatever is there.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";

function owner(dir: string): string | undefined {
  try {
    return readFileSync(join(dir, "owner"), "utf8");
  } catch {
    return undefined;
  }
}

function dead(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export function reclaim(lockDir: string): boolean {
  const judged = owner(lockDir);
  if (!judged || !dead(Number(judged))) return false;
  const staleDir = `${lockDir}.${randomUUID()}.stale`;
  renameSync(lockDir, staleDir);
  if (owner(staleDir) === judged) {
    rmSync(staleDir, { recursive: true, force: true });
    return true;
  }
  renameSync(staleDir, lockDir);
  return false;
}

export function acquire(lockDir: string): boolean {
  try {
    mkdirSync(lockDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return reclaim(lockDir) && acquire(lockDir);
  }
  writeFileSync(join(lockDir, "owner"), String(process.pid));
  return true;
}
