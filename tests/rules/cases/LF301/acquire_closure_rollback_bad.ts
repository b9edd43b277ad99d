// The acquire closure undoes its own create when writing the owner record
// fails (the record stamped with `new Date().toISOString()`): that rollback is
// no release, and calling the closure after breaking the lock takes the lock,
// it is no takeover through a helper. The break itself (a removal by name
// after judging the owner dead) is the one finding.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

function ownerFile(lockPath: string): string {
  return join(lockPath, "owner.json");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function tryAcquire(lockPath: string): string | null {
  const acquire = (): string | null => {
    try {
      mkdirSync(lockPath);
      try {
        writeFileSync(ownerFile(lockPath), `${JSON.stringify({ pid: process.pid, at: new Date().toISOString() })}\n`);
      } catch (error) {
        rmSync(lockPath, { recursive: true, force: true });
        throw error;
      }
      return lockPath;
    } catch {
      return null;
    }
  };
  const acquired = acquire();
  if (acquired) return acquired;
  const owner = JSON.parse(readFileSync(ownerFile(lockPath), "utf8")) as { pid: number };
  if (alive(owner.pid)) return null;
  rmSync(lockPath, { recursive: true, force: true });
  return acquire();
}
