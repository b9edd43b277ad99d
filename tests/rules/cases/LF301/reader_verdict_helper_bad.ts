// The verdict helper checkLock() looks at the lock only through the module's
// reader (readLockFile) and probes the recorded pid: its "stale" verdict judges
// the lock for the caller that then removes it (line 67, through
// deleteLockFile), so the module breaks that lock and the plain release inside
// deleteLockFile (line 58) deletes a successor's lock.
import { open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";

function getLockPath(cwd: string): string {
  return join(cwd, ".ralph", "ralph.lock");
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readLockFile(cwd: string): Promise<{ pid: number } | null> {
  try {
    return JSON.parse(await readFile(getLockPath(cwd), "utf-8"));
  } catch {
    return null;
  }
}

async function checkLock(cwd: string): Promise<{ isStale: boolean }> {
  const lock = await readLockFile(cwd);
  if (!lock) return { isStale: false };
  return { isStale: !isRunning(lock.pid) };
}

async function writeLockFile(cwd: string): Promise<void> {
  const lockPath = getLockPath(cwd);
  const handle = await open(lockPath, "wx");
  try {
    await handle.writeFile(JSON.stringify({ pid: process.pid }));
  } finally {
    await handle.close();
  }
}

async function tryWrite(cwd: string): Promise<boolean> {
  try {
    await writeLockFile(cwd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

async function deleteLockFile(cwd: string): Promise<void> {
  try {
    await unlink(getLockPath(cwd));
  } catch {
    /* gone */
  }
}

export async function acquire(cwd: string): Promise<boolean> {
  const status = await checkLock(cwd);
  if (status.isStale) {
    await deleteLockFile(cwd);
  }
  return tryWrite(cwd);
}
