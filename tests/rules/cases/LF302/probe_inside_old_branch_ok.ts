// The age only picks the locks worth a look: inside the old-lock branch the
// recorded owner is probed first and a live one is left alone, so a paused
// holder keeps its lock. The removal compares the record it judged first.
import { openSync, readFileSync, statSync, unlinkSync, writeSync, closeSync } from "node:fs";

const LOCK = "/tmp/registry.lock";
const STALE_MS = 10_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(): { raw: string; pid: number | null } | null {
  try {
    const raw = readFileSync(LOCK, "utf8");
    const pid = Number.parseInt(JSON.parse(raw).pid, 10);
    return { raw, pid: Number.isFinite(pid) ? pid : null };
  } catch {
    return null;
  }
}

export function tryLock(): number | null {
  try {
    const fd = openSync(LOCK, "wx");
    writeSync(fd, JSON.stringify({ pid: process.pid, at: Date.now() }));
    return fd;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const ageMs = Date.now() - statSync(LOCK).mtimeMs;
  if (ageMs > STALE_MS) {
    const seen = readOwner();
    if (!seen) {
      return null;
    }
    if (seen.pid !== null && alive(seen.pid)) {
      return null;
    }
    if (readFileSync(LOCK, "utf8") === seen.raw) {
      unlinkSync(LOCK);
    }
  }
  return null;
}

export function unlock(fd: number): void {
  closeSync(fd);
}
