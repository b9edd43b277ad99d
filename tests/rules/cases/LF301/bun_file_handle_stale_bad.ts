// A Bun lock file: judged stale through a Bun.file handle (its age, its
// owner's pid) and deleted by name; the holder's release deletes it by name
// too, in a module that breaks it on age alone.
import { open } from "node:fs/promises";

const LOCK_STALE_MS = 30_000;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function clearStaleLock(lockFile: string): Promise<void> {
  const file = Bun.file(lockFile);
  if (!(await file.exists())) return;
  const ownerPid = parseInt((await file.text()).trim(), 10);
  const stats = await file.stat();
  const age = Date.now() - stats.mtime.getTime();
  if (age < LOCK_STALE_MS && pidAlive(ownerPid)) return;
  await file.delete();
}

export async function withFileLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  await clearStaleLock(lockFile);
  const handle = await open(lockFile, "wx");
  try {
    await handle.writeFile(String(process.pid));
  } finally {
    await handle.close();
  }
  try {
    return await fn();
  } finally {
    await Bun.file(lockFile).delete();
  }
}
