// The time recorded in a lock directory's info file, read through the
// module's reader, decides a break even while the holder is alive (the pid
// probe only adds a second reason to break it).
import path from 'node:path';
import fs from 'node:fs/promises';

interface LockInfo {
  pid: number;
  timestamp: number;
}

async function readLockInfo(lockPath: string): Promise<LockInfo | null> {
  try {
    return JSON.parse(await fs.readFile(path.join(lockPath, 'lock.info'), 'utf-8')) as LockInfo;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function breakIfStale(lockPath: string): Promise<boolean> {
  const info = await readLockInfo(lockPath);
  if (info !== null && (Date.now() - info.timestamp > 10_000 || !alive(info.pid))) {
    await fs.rm(lockPath, { recursive: true, force: true });
    return true;
  }
  return false;
}

export async function acquire(filePath: string): Promise<void> {
  const lockPath = `${filePath}.lock`;
  for (;;) {
    try {
      await fs.mkdir(lockPath);
      await fs.writeFile(path.join(lockPath, 'lock.info'), JSON.stringify({ pid: process.pid, timestamp: Date.now() }));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!(await breakIfStale(lockPath))) await new Promise((r) => setTimeout(r, 50));
    }
  }
}
