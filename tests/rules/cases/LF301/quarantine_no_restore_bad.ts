// The lock moved aside after judging its owner dead, and nothing checks what
// was moved or puts it back: a lock another process took in between is the
// one moved and deleted.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";

function dead(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export function reclaim(lockDir: string): boolean {
  const judged = readFileSync(join(lockDir, "owner"), "utf8");
  if (!dead(Number(judged))) return false;
  const staleDir = `${lockDir}.${randomUUID()}.stale`;
  renameSync(lockDir, staleDir);
  rmSync(staleDir, { recursive: true, force: true });
  return true;
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
