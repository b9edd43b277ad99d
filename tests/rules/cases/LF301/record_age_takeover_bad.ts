// The owner record read, then its recorded time compared with Date.now() in
// the same function: a staleness judgement of the lock, then a removal by
// name (a takeover); the plain release elsewhere deletes a successor's lock
// once a holder paused past the age was broken.
import { closeSync, constants, openSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const LOCK_PATH = join(process.cwd(), "index", "reindex.lock");

function acquireReindexLock(): boolean {
  try {
    const fd = openSync(LOCK_PATH, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY);
    writeFileSync(fd, `${process.pid}\n${Date.now()}\n`);
    closeSync(fd);
    return true;
  } catch {
    try {
      const content = readFileSync(LOCK_PATH, "utf-8");
      const timestamp = parseInt(content.split("\n")[1] ?? "0", 10);
      if (Date.now() - timestamp > 5 * 60 * 1000) {
        unlinkSync(LOCK_PATH);
        return acquireReindexLock();
      }
    } catch {}
    return false;
  }
}

function releaseReindexLock(): void {
  try {
    unlinkSync(LOCK_PATH);
  } catch {}
}

export function reindex(work: () => void): void {
  if (!acquireReindexLock()) return;
  try {
    work();
  } finally {
    releaseReindexLock();
  }
}
