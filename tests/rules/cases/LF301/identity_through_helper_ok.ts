// The removal is bound to what was judged through the module's helper: the
// lock is looked at twice and removed only while it is the same file
// (sameObservedLock compares .dev and .ino), as close as Node can come to a
// compare-and-delete.
import { lstatSync, openSync, closeSync, readFileSync, unlinkSync } from 'fs';

type Seen = { dev: number; ino: number; text: string };

function inspect(lockPath: string): Seen | null {
  try {
    const st = lstatSync(lockPath);
    return { dev: st.dev, ino: st.ino, text: readFileSync(lockPath, 'utf8') };
  } catch {
    return null;
  }
}

function sameObservedLock(a: Seen, b: Seen): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.text === b.text;
}

function isStale(seen: Seen): boolean {
  const pid = parseInt(seen.text, 10);
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function reclaim(lockPath: string): void {
  const first = inspect(lockPath);
  if (!first || !isStale(first)) return;
  const second = inspect(lockPath);
  if (!second || !sameObservedLock(first, second)) return;
  unlinkSync(lockPath);
}

export function acquire(lockPath: string): boolean {
  try {
    closeSync(openSync(lockPath, 'wx'));
    return true;
  } catch {
    reclaim(lockPath);
    return false;
  }
}
