// The catch returns `true` only after it took the lock itself: it found the
// lock stale, moved it aside and created it again with "wx" (a failure of
// that create returns false). Every `true` means the lock is held: no
// LF101. (Whether moving a stale lock aside is safe is LF301's question.)
import { randomUUID } from "node:crypto";
import { renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";

const LOCK = "/tmp/delayed-message.lock";

export function acquireLock(staleMs: number): boolean {
  const token = `${process.pid}:${randomUUID()}`;
  try {
    writeFileSync(LOCK, token, { flag: "wx" });
    return true;
  } catch {
    try {
      if (Date.now() - statSync(LOCK).mtimeMs <= staleMs) return false;
      const aside = `${LOCK}.stale-${randomUUID()}`;
      renameSync(LOCK, aside);
      unlinkSync(aside);
      writeFileSync(LOCK, token, { flag: "wx" });
      return true;
    } catch {
      return false;
    }
  }
}

export function run(work: () => void): void {
  if (!acquireLock(60_000)) return;
  try {
    work();
  } finally {
    unlinkSync(LOCK);
  }
}
