// One private helper removes the lock directory both when a stale lock is
// broken and when the holder is done. The break is a takeover by name at its
// call; the holder's release in the finally is a release of a lock the module
// breaks, at its call: two root bugs, each where it happens, none inside.
import { mkdirSync, rmdirSync, statSync } from "node:fs";

function releaseLock(lockDir: string): void {
  try {
    rmdirSync(lockDir);
  } catch {}
}

function isStale(lockDir: string, staleMs: number): boolean {
  try {
    return Date.now() - statSync(lockDir).mtimeMs > staleMs;
  } catch {
    return false;
  }
}

export async function withLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  while (true) {
    try {
      mkdirSync(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (isStale(lockDir, 30_000)) {
        releaseLock(lockDir);
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await fn();
  } finally {
    releaseLock(lockDir);
  }
}
