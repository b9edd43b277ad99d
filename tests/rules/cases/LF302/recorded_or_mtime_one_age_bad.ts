// One age, from the recorded start or else the file's mtime: one finding,
// at the comparison that judges that age (line 24), not one per operand of
// the conditional.
import { openSync, closeSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';

function readInfo(lockPath: string): { pid?: number; startedAt?: number } | undefined {
  try {
    return JSON.parse(readFileSync(lockPath, 'utf8'));
  } catch {
    return undefined;
  }
}

export function acquire(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, 'wx');
    writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: Date.now() }));
    closeSync(fd);
    return true;
  } catch {
    const st = statSync(lockPath);
    const info = readInfo(lockPath);
    const ageMs = info?.startedAt ? Date.now() - info.startedAt : Date.now() - st.mtimeMs;
    if (ageMs > 60_000) unlinkSync(lockPath);
    return false;
  }
}
