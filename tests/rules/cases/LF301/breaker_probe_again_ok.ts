// Reclaimers serialised by a marker file created exclusively inside the lock
// directory: under it, the owner's pid is read from the lock's record and
// probed again before the lock directory is removed.
import { mkdir, open, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function ownerPid(lockDir: string): Promise<number> {
  return Number(await readFile(join(lockDir, "owner"), "utf8"));
}

async function reclaim(lockDir: string): Promise<boolean> {
  const marker = join(lockDir, "reclaim");
  try {
    const handle = await open(marker, "wx");
    await handle.close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return false;
  }
  if (alive(await ownerPid(lockDir))) {
    await rm(marker, { force: true });
    return false;
  }
  await rm(lockDir, { recursive: true, force: true });
  return true;
}

export async function acquire(lockDir: string): Promise<boolean> {
  try {
    await mkdir(lockDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await reclaim(lockDir)) && acquire(lockDir);
  }
  await writeFile(join(lockDir, "owner"), String(process.pid));
  return true;
}
