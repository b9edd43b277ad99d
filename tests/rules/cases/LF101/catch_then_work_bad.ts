// The exclusive create's failure is swallowed and the function goes on to
// its work: whenever another process holds the lock, the work runs unlocked.
import { promises as fsp } from "node:fs";

const LOCK_FILE = "/tmp/example-job.lock";

async function runJob(): Promise<void> {}

export async function runExclusive(): Promise<void> {
  try {
    await fsp.writeFile(LOCK_FILE, String(process.pid), { flag: "wx" });
  } catch {}
  await runJob();
  await fsp.unlink(LOCK_FILE);
}
