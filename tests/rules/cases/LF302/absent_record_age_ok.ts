// The directory's age is read only when its owner record is missing (its
// holder died between mkdir and writing it): a holder with a record is
// judged by the record, not by this age.
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
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

async function breakIfAbandoned(lockDir: string): Promise<boolean> {
  const owner = await readOwner(lockDir);
  if (owner === null) {
    const st = await stat(lockDir);
    if (Date.now() - st.mtimeMs > STALE_MS) {
      await rm(lockDir, { recursive: true, force: true });
      return true;
    }
    return false;
  }
  return !alive(owner.pid);
}

export async function acquire(lockDir: string): Promise<boolean> {
  try {
    await mkdir(lockDir);
  } catch {
    if (await breakIfAbandoned(lockDir)) return acquire(lockDir);
    return false;
  }
  await writeFile(join(lockDir, "owner.json"), JSON.stringify({ pid: process.pid }));
  return true;
}
