// A helper called for its effect alone (`await reapStale(lock);`, result
// thrown away) judges and breaks the lock itself: that removal is reported
// there, and the caller's later release through releaseIfOwned is reported
// once, inside the helper, not again at its call. (dropLock, a release of a
// lock the module breaks, is reported inside too.)
import { mkdir, readFile, rm, stat } from "node:fs/promises";

async function reapStale(lock: string): Promise<void> {
  const info = await stat(lock);
  if (Date.now() - info.mtimeMs > 60_000) {
    await rm(lock, { recursive: true, force: true });
  }
}

async function isStale(lock: string): Promise<boolean> {
  const info = await stat(lock);
  return Date.now() - info.mtimeMs > 60_000;
}

async function dropLock(lock: string): Promise<void> {
  await rm(lock, { recursive: true, force: true });
}

async function releaseIfOwned(lock: string, token: string): Promise<void> {
  const owner = await readFile(`${lock}/owner`, "utf8");
  if (owner === token) {
    await rm(lock, { recursive: true, force: true });
  }
}

async function claim(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
    return true;
  } catch {
    return false;
  }
}

export async function withLock<T>(lock: string, token: string, fn: () => Promise<T>): Promise<T> {
  while (!(await claim(lock))) {
    await reapStale(lock);
  }
  try {
    return await fn();
  } finally {
    await releaseIfOwned(lock, token);
  }
}

export async function takeOver(lock: string): Promise<void> {
  if (await isStale(lock)) {
    await dropLock(lock);
  }
}
