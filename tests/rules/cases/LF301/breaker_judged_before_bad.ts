// A breakers' lock taken only after the judgement, with no look again under
// it: two breakers that both judged the lock stale take the breakers' lock in
// turn, and the second removes the lock the first one's successor has taken.
import { open, rename, stat, unlink } from "node:fs/promises";

async function reap(lockPath: string, staleMs: number): Promise<void> {
  const info = await stat(lockPath).catch(() => undefined);
  if (!info || Date.now() - info.mtimeMs <= staleMs) return;
  const breakerPath = `${lockPath}.breaker`;
  let breaker;
  try {
    breaker = await open(breakerPath, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return;
  }
  try {
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
      await handle.writeFile(`${process.pid}`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      await reap(lockPath, staleMs);
    }
  }
  return fn();
}
