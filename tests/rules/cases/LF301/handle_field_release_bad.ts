// The release removes the path the handle carries, which is the lock the
// acquire created (typed: acquire returns a LockHandle { path }, release takes
// one); the module also breaks that lock, so a holder whose lock was broken
// deletes its successor's.
import * as fs from 'node:fs';

export interface LockHandle {
  path: string;
  fd: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireLock(lockPath: string): LockHandle | null {
  try {
    const fd = fs.openSync(lockPath, 'wx');
    fs.writeSync(fd, String(process.pid));
    return { path: lockPath, fd };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const holder = parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
  if (alive(holder)) return null;
  fs.unlinkSync(lockPath);
  return null;
}

export function releaseLock(handle: LockHandle): void {
  try { fs.closeSync(handle.fd); } catch { /* closed */ }
  fs.unlinkSync(handle.path);
}
