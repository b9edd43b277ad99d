// The age reads like a gate, but nothing past it asks whether the holder
// lives: an old lock is reclaimed on its age alone, and a paused holder
// loses it.
import { open, readFile, stat } from "node:fs/promises";

const STALE_MS = 30_000;

async function reclaimable(lockPath: string): Promise<boolean> {
  const st = await stat(lockPath);
  if (Date.now() - st.mtimeMs < STALE_MS) {
    return false;
  }
  const rec = JSON.parse(await readFile(lockPath, "utf8")) as { host?: string };
  return rec.host !== undefined;
}

export async function tryAcquire(lockPath: string): Promise<boolean> {
  try {
    const fh = await open(lockPath, "wx");
    await fh.writeFile(JSON.stringify({ pid: process.pid, host: "h" }));
    await fh.close();
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  if ((await reclaimable(lockPath)) || (await staleAfterProbe(lockPath)) || (await oldLeavesFirst(lockPath))) {
    throw new Error(`stale lock ${lockPath}`);
  }
  return false;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

// The young branch falls through instead of leaving: the probe below runs
// for young and old locks alike, and the age decides on its own after it.
export async function staleAfterProbe(lockPath: string): Promise<boolean> {
  const st = await stat(lockPath);
  const rec = JSON.parse(await readFile(lockPath, "utf8")) as { pid: number };
  if (alive(rec.pid)) {
    console.error("holder alive");
  }
  return Date.now() - st.mtimeMs > STALE_MS;
}

// The branch that leaves is the old lock's: it is reclaimed on its age
// before any probe, and the probe below judges only young locks.
export async function oldLeavesFirst(lockPath: string): Promise<boolean> {
  const st = await stat(lockPath);
  if (Date.now() - st.mtimeMs > STALE_MS) return true;
  const rec = JSON.parse(await readFile(lockPath, "utf8")) as { pid: number };
  return !alive(rec.pid);
}
