// The lock's age decides only for a lock without a readable owner record
// (its holder died between mkdir and writing it): a holder with a record,
// paused or not, is judged by whether its pid is alive.
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

const STALE_MS = 60_000;

interface Owner {
  pid: number;
}

async function readOwner(lockDir: string): Promise<Owner | null> {
  try {
    return JSON.parse(await readFile(join(lockDir, "owner.json"), "utf8")) as Owner;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function reclaimable(lockDir: string): Promise<boolean> {
  const owner = await readOwner(lockDir);
  if (owner) return !alive(owner.pid);
  const st = await stat(lockDir);
  return Date.now() - st.mtimeMs > STALE_MS;
}

async function reclaimableElse(lockDir: string): Promise<boolean> {
  const owner = await readOwner(lockDir);
  if (owner !== null) {
    return !alive(owner.pid);
  } else {
    const { mtimeMs } = await stat(lockDir);
    return Date.now() - mtimeMs > STALE_MS;
  }
}

export async function acquire(lockDir: string): Promise<boolean> {
  try {
    await mkdir(lockDir);
  } catch {
    if (!(await reclaimable(lockDir)) && !(await reclaimableElse(lockDir))) return false;
    throw new Error(`stale lock ${lockDir}: its holder is gone; remove it by hand`);
  }
  await writeFile(join(lockDir, "owner.json"), JSON.stringify({ pid: process.pid }));
  return true;
}
