// The acquire helper reads the owner record, probes the owner, and takes the
// lock by rewriting the record (no exclusive create): a takeover. The
// caller's later unlink is a release by name of a lock the module breaks, not
// a judged break of its own (the probe belongs to the acquire helper).
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";

const JOB_LOCK = "/tmp/job-runner.lock";

function claim(): boolean {
  try {
    const rec = JSON.parse(readFileSync(JOB_LOCK, "utf8"));
    try {
      process.kill(rec.pid, 0);
      return false;
    } catch (e: any) {
      if (e.code === "EPERM") return false;
    }
  } catch {
    /* no record */
  }
  writeFileSync(JOB_LOCK, JSON.stringify({ pid: process.pid }));
  return true;
}

export function runJob(work: () => void) {
  if (!claim()) return;
  try {
    work();
  } finally {
    unlinkSync(JOB_LOCK);
  }
}
