// The module's own helpers that return no verdict on the lock: readOwner()
// returns the record (no age, no pid probe), and the acquire helper looks at
// the lock as part of taking it. Nothing breaks the lock, so the releases
// through the remove helper delete only the caller's own lock.
import { open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";

const LOCK = join(process.cwd(), "job.lock");

async function readOwner(path: string): Promise<{ pid: number } | null> {
  try {
    return JSON.parse(await readFile(path, "utf8"));
  } catch {
    return null;
  }
}

async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch {}
}

async function tryAcquire(): Promise<boolean> {
  try {
    const fh = await open(LOCK, "wx");
    await fh.writeFile(JSON.stringify({ pid: process.pid, time: Date.now() }));
    await fh.close();
    return true;
  } catch {
    const owner = JSON.parse(await readFile(LOCK, "utf8"));
    console.log(`held by ${owner.pid} since ${Date.now() - owner.time} ms`);
    return false;
  }
}

export async function withJobLock<T>(fn: () => Promise<T>): Promise<T | null> {
  if (!(await tryAcquire())) return null;
  try {
    return await fn();
  } finally {
    const owner = await readOwner(LOCK);
    if (owner && owner.pid === process.pid) await removeFile(LOCK);
  }
}
