// A pid lock's check-then-write: the owner record is read to judge the
// holder, then a fresh record naming this process is written. That claims
// the lock (its race is LF301/LF303's); no document's update is lost.
import { readFile, writeFile } from "node:fs/promises";

export async function acquireLock(lockFile: string, stale: (p: string) => Promise<boolean>): Promise<boolean> {
  try {
    const existing = await readFile(lockFile, "utf-8");
    const owner = JSON.parse(existing);
    if (!(await stale(lockFile))) {
      console.log(`held by ${owner.pid}`);
      return false;
    }
  } catch {
    // no lock file yet
  }
  const record = { pid: process.pid, timestamp: Date.now() };
  await writeFile(lockFile, JSON.stringify(record, null, 2), "utf-8");
  return true;
}
