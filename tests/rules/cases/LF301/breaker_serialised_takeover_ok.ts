// A stale takeover made while holding a second lock every breaker takes
// first (the breakers' lock), with the lock judged again under it: a second
// breaker waits for the breakers' lock and, once it has it, judges the lock
// afresh, so the lock the first breaker's successor took is live and stays.
import { open, readFile, rename, stat, unlink } from "node:fs/promises";

function ownerAlive(owner: string): boolean {
  const pid = Number(owner.split(":", 1)[0]);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function reap(lockPath: string, staleMs: number): Promise<void> {
  const breakerPath = `${lockPath}.breaker`;
  let breaker;
  try {
    breaker = await open(breakerPath, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return;
  }
  try {
    const owner = await readFile(lockPath, "utf8").catch(() => "");
    const info = await stat(lockPath).catch(() => undefined);
    if (!info || Date.now() - info.mtimeMs <= staleMs || ownerAlive(owner)) return;
    await rename(lockPath, `${lockPath}.stale.${process.pid}`);
  } finally {
    await breaker.close();
    await unlink(breakerPath);
  }
}

export async function withLock<T>(lockPath: string, staleMs: number, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      const handle = await open(lockPath, "wx");
      await handle.writeFile(`${process.pid}:x`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      await reap(lockPath, staleMs);
    }
  }
  return fn();
}
