// forceRemoveLock() is exported and does every removal: the stale breaks of
// tryBreak() and the holder's release, which withFileLock() reaches through
// releaseLock() after taking the lock through acquireLock(). The release by
// name is the root bug (a holder whose lock was broken deletes its
// successor's), so it is reported once, inside the helper, and the breaks
// through it are the same bug again.
import fs from "node:fs/promises";
import path from "node:path";

const STALE_MS = 10_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function forceRemoveLock(lockDir: string): Promise<void> {
  await fs.unlink(path.join(lockDir, "owner.json")).catch(() => undefined);
  await fs.rmdir(lockDir).catch(() => undefined);
}

async function readOwner(lockDir: string): Promise<{ pid: number; at: number } | null> {
  try {
    return JSON.parse(await fs.readFile(path.join(lockDir, "owner.json"), "utf8"));
  } catch {
    return null;
  }
}

async function tryBreak(lockDir: string): Promise<boolean> {
  const owner = await readOwner(lockDir);
  if (owner === null) {
    const stat = await fs.stat(lockDir).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > STALE_MS) {
      await forceRemoveLock(lockDir);
      return true;
    }
    return false;
  }
  if (!isAlive(owner.pid)) {
    await forceRemoveLock(lockDir);
    return true;
  }
  return false;
}

async function acquireLock(file: string): Promise<void> {
  const lockDir = `${file}.lock`;
  for (;;) {
    try {
      await fs.mkdir(lockDir);
      await fs.writeFile(path.join(lockDir, "owner.json"), JSON.stringify({ pid: process.pid, at: Date.now() }));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (!(await tryBreak(lockDir))) await new Promise((r) => setTimeout(r, 50));
    }
  }
}

async function releaseLock(file: string): Promise<void> {
  const lockDir = `${file}.lock`;
  await forceRemoveLock(lockDir);
}

export async function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  await acquireLock(file);
  try {
    return await fn();
  } finally {
    await releaseLock(file);
  }
}
