// A module whose lock is its startup lock sweeps a registry of pid files
// that no one takes as a lock: the file removed for a "dead" entry is a
// record, not a lock, and the probe's verdict decides nothing else.
import { promises as fs } from "node:fs";
import * as path from "node:path";

// The module's lock: a startup lock taken exclusively, released by its holder.
export async function withStartupLock<T>(lockPath: string, fn: () => Promise<T>): Promise<T> {
  try {
    const handle = await fs.open(lockPath, "wx");
    await handle.close();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new Error("another start is under way");
    throw err;
  }
  try {
    return await fn();
  } finally {
    await fs.unlink(lockPath);
  }
}

// Sweeping a registry of pid files that no one takes as a lock (the module
// excludes with its startup lock): the file removed for a "dead" entry is a
// record, not a lock.
export async function sweepRegistry(dir: string): Promise<number[]> {
  const alive: number[] = [];
  for (const name of await fs.readdir(dir)) {
    const file = path.join(dir, name);
    const info = JSON.parse(await fs.readFile(file, "utf8")) as { pid: number };
    try {
      process.kill(info.pid, 0);
    } catch {
      await fs.unlink(file).catch(() => {});
      continue;
    }
    alive.push(info.pid);
  }
  return alive;
}
