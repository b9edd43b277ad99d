// The age decides although the owner record is there: judged first, or the
// branch for a present record does not look at the holder's pid. A paused
// holder with its record loses the lock.
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

const STALE_MS = 60_000;

async function readOwner(lockDir: string): Promise<{ pid: number } | null> {
  try {
    return JSON.parse(await readFile(join(lockDir, "owner.json"), "utf8")) as { pid: number };
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

// Age first: a live owner past the limit loses the lock.
async function staleFirst(lockDir: string): Promise<boolean> {
  const st = await stat(lockDir);
  if (Date.now() - st.mtimeMs > STALE_MS) return true;
  const owner = await readOwner(lockDir);
  return owner ? !alive(owner.pid) : false;
}

// The record is read, but its branch does not judge the pid.
async function recordIgnored(lockDir: string): Promise<boolean> {
  const owner = await readOwner(lockDir);
  if (owner) console.log("held by", owner.pid);
  const st = await stat(lockDir);
  return Date.now() - st.mtimeMs > STALE_MS;
}

export async function acquire(lockDir: string): Promise<boolean> {
  try {
    await mkdir(lockDir);
  } catch {
    if (!(await staleFirst(lockDir)) && !(await recordIgnored(lockDir))) return false;
    await rm(lockDir, { recursive: true, force: true });
    return acquire(lockDir);
  }
  await writeFile(join(lockDir, "owner.json"), JSON.stringify({ pid: process.pid }));
  return true;
}
