// A lock record holding the owner's pid (written through JSON.stringify of
// the record), judged stale by an age helper, then taken by overwriting it:
// the module breaks the lock, so the plain release deletes a successor's.
import { readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

const STALE_MS = 2 * 60 * 60 * 1000;

function paths(dir: string) {
  return { lockFile: join(dir, ".update.lock") };
}

export async function isLockStale(lockPath: string): Promise<boolean> {
  try {
    const data = JSON.parse(await readFile(lockPath, "utf-8"));
    return Date.now() - data.timestamp > STALE_MS;
  } catch {
    return false;
  }
}

export async function acquireLock(dir: string): Promise<boolean> {
  const { lockFile } = paths(dir);
  try {
    await readFile(lockFile, "utf-8");
    if (!(await isLockStale(lockFile))) return false;
  } catch {
    /* no lock: take it */
  }
  const record = { pid: process.pid, timestamp: Date.now() };
  await writeFile(lockFile, JSON.stringify(record), "utf-8");
  return true;
}

export async function releaseLock(dir: string): Promise<void> {
  const { lockFile } = paths(dir);
  try {
    await unlink(lockFile);
  } catch {}
}
