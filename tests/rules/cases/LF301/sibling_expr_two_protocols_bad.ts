// Two protocols spelled alike: each function creates `${file}.lock` itself,
// for the file its callers give. acquirePidLock breaks its lock after
// judging the owner dead (line 27, the one finding); acquireStateLock's lock
// is never broken, so its release (line 40) is no finding: a function that
// creates the path itself is no sibling of the other's lock.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function acquirePidLock(file: string): boolean {
  const lock = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "owner"), String(process.pid));
      return true;
    } catch {
      if (alive(Number(readFileSync(join(lock, "owner"), "utf8")))) return false;
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return false;
}

export function acquireStateLock(file: string): (() => void) | null {
  const lock = `${file}.lock`;
  try {
    mkdirSync(lock);
  } catch {
    return null;
  }
  return () => rmSync(lock, { recursive: true, force: true });
}
