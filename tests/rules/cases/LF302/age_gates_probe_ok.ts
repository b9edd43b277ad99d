// The lock's age only spares a young lock the probe: an old lock is judged
// by whether the pid in its record is alive (or broken when it has no
// readable record: its holder died before writing one). A paused holder is
// alive, so no age takes its lock.
import { open, readFile, stat, unlink } from "node:fs/promises";

const MIN_AGE_MS = 30_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function reclaimable(lockPath: string): Promise<boolean> {
  const st = await stat(lockPath);
  if (Date.now() - st.mtimeMs < MIN_AGE_MS) {
    return false;
  }
  try {
    const rec = JSON.parse(await readFile(lockPath, "utf8")) as { pid?: unknown };
    if (typeof rec.pid !== "number") return true;
    return !alive(rec.pid);
  } catch {
    return true;
  }
}

export async function tryAcquire(lockPath: string): Promise<boolean> {
  try {
    const fh = await open(lockPath, "wx");
    await fh.writeFile(JSON.stringify({ pid: process.pid }));
    await fh.close();
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  if (await reclaimable(lockPath)) {
    throw new Error(`stale lock ${lockPath}: its holder is gone; remove it by hand`);
  }
  return false;
}

export async function release(lockPath: string): Promise<void> {
  await unlink(lockPath);
}
