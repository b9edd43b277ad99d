// A stale takeover done through the module's own helpers: isStale(path)
// returns a verdict (the record's age, or its owner's pid), the removal goes
// through a generic remove helper handed several paths. Each removal of the
// lock after a verdict is a root bug at its call; the release in `finally`
// deletes a successor's lock once the module has broken this one.
import { open, readFile, unlink, writeFile, rename } from "node:fs/promises";
import { join } from "node:path";

const LOCK_DIR = join(process.cwd(), ".state");
const WRITE_LOCK = join(LOCK_DIR, "write.lock");
const STALE_MS = 30_000;

async function isStale(path: string): Promise<boolean> {
  try {
    const meta = JSON.parse(await readFile(path, "utf8"));
    return Date.now() - meta.time > STALE_MS;
  } catch {
    return true;
  }
}

async function safeUnlink(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch {
    /* already gone */
  }
}

export async function saveAtomic(path: string, data: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${Math.random()}.tmp`;
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch {
    await safeUnlink(tmp);
  }
}

async function tryAcquire(): Promise<boolean> {
  try {
    const fh = await open(WRITE_LOCK, "wx");
    await fh.writeFile(JSON.stringify({ pid: process.pid, time: Date.now() }));
    await fh.close();
    return true;
  } catch {
    if (await isStale(WRITE_LOCK)) {
      await safeUnlink(WRITE_LOCK);
      return tryAcquire();
    }
    return false;
  }
}

export async function withWriteLock<T>(fn: () => Promise<T>): Promise<T> {
  while (!(await tryAcquire())) await new Promise((r) => setTimeout(r, 50));
  try {
    return await fn();
  } finally {
    await safeUnlink(WRITE_LOCK);
  }
}
