// A lock made by hard-linking a written temp onto the path (tryLink), whose
// record a sibling helper reads back (readHolder) for the same argument: a
// lock by its protocol; breaking a dead holder's lock by name races.
import { writeFileSync, readFileSync, rmSync, linkSync, unlinkSync } from 'fs';
import { join } from 'path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(lockFile: string): string {
  let raw: string;
  try {
    raw = readFileSync(lockFile, 'utf-8').trim();
  } catch {
    return 'gone';
  }
  return alive(parseInt(raw, 10)) ? 'alive' : 'dead';
}

function tryLink(lockFile: string): string {
  const tmpFile = `${lockFile}.${process.pid}.tmp`;
  writeFileSync(tmpFile, String(process.pid), { flag: 'wx' });
  try {
    linkSync(tmpFile, lockFile);
    return 'acquired';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return 'exists';
  } finally {
    try { unlinkSync(tmpFile); } catch { /* the link keeps the lock */ }
  }
}

export function acquireLock(dir: string): boolean {
  const lockFile = join(dir, '.lock');
  if (tryLink(lockFile) === 'acquired') return true;
  if (readHolder(lockFile) === 'alive') return false;
  try { rmSync(lockFile, { force: true }); } catch { /* another recoverer won */ }
  return false;
}
