// A cleanup that removes a list of fixed paths in a loop removes each of
// them: here the daemon's pid file and the module's startup lock, after
// judging the daemon dead, while the caller may hold that lock.
import { promises as fs } from "node:fs";
import { join } from "node:path";

const pidPath = (dir: string) => join(dir, "daemon.pid");
const lockPath = (dir: string) => join(dir, "startup.lock");

export async function withStartupLock<T>(dir: string, fn: () => Promise<T>): Promise<T | null> {
  try {
    const h = await fs.open(lockPath(dir), "wx");
    await h.close();
  } catch {
    return null;
  }
  try {
    return await fn();
  } finally {
    await fs.unlink(lockPath(dir));
  }
}

export async function cleanupStaleFiles(dir: string): Promise<void> {
  const pid = parseInt(await fs.readFile(pidPath(dir), "utf-8"), 10);
  try {
    process.kill(pid, 0);
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EPERM") return;
  }
  for (const file of [pidPath(dir), lockPath(dir)]) {
    try {
      await fs.unlink(file);
    } catch {}
  }
}
