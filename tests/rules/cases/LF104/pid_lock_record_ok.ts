// The module uses LOCK as a pid lock: it reads the owner record, probes the
// owner, writes its own record and removes it on release. That check-then-write
// is the lock's own race (LF301/LF303), not a lost update of a document.
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";

const LOCK = "/tmp/app-job.lock";

function takeLock(): boolean {
  try {
    const held = JSON.parse(readFileSync(LOCK, "utf8"));
    if (held.pid && held.pid !== process.pid) return false;
  } catch {
    /* none yet */
  }
  writeFileSync(LOCK, JSON.stringify({ pid: process.pid, at: Date.now() }));
  return true;
}

export function runJob(work: () => void) {
  if (!takeLock()) return;
  try {
    work();
  } finally {
    unlinkSync(LOCK);
  }
}
