// The stale test is a helper handed the record its caller read from the
// lock: the age since the recorded creation time, which the holder never
// refreshes, so a server that runs past staleMs loses its lock to a newcomer
// even while its pid is alive (the lock is broken when its owner is dead OR
// the record is old).
import { closeSync, openSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";

interface LockPayload {
  pid: number;
  createdAt: string;
}

function readLock(path: string): LockPayload | null {
  try {
    return JSON.parse(readFileSync(path, "utf-8")) as LockPayload;
  } catch {
    return null;
  }
}

function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isLockStale(payload: LockPayload, staleMs: number): boolean {
  const age = Date.now() - Date.parse(payload.createdAt);
  return age > staleMs;
}

export function acquire(path: string, staleMs = 30_000): void {
  for (;;) {
    try {
      const fd = openSync(path, "wx");
      writeFileSync(fd, JSON.stringify({ pid: process.pid, createdAt: new Date().toISOString() }));
      closeSync(fd);
      return;
    } catch {
      const payload = readLock(path);
      if (payload && (!isPidAlive(payload.pid) || isLockStale(payload, staleMs))) unlinkSync(path);
    }
  }
}
