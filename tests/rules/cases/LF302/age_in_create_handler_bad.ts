// The handler of a failed exclusive create, and the handler of a read whose
// record is not probed, judge the lock by its age: a live holder that is
// merely paused loses it.
import * as fs from "node:fs";

const STALE_MS = 10_000;

function lockAgeMs(lockPath: string): number {
  return Date.now() - fs.statSync(lockPath).mtimeMs;
}

export function acquire(lockPath: string): boolean {
  try {
    fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
    return true;
  } catch {
    if (Date.now() - fs.statSync(lockPath).mtimeMs > STALE_MS) {
      fs.unlinkSync(lockPath);
      return acquire(lockPath);
    }
    return false;
  }
}

// The record is read, but nothing asks whether its pid is alive: the age
// decides for every lock, readable or not.
export function held(lockPath: string): boolean {
  try {
    const owner = JSON.parse(fs.readFileSync(lockPath, "utf8")) as { pid: number };
    return owner.pid > 0 && lockAgeMs(lockPath) < STALE_MS;
  } catch {
    return lockAgeMs(lockPath) < STALE_MS;
  }
}

export function take(lockPath: string): boolean {
  if (held(lockPath)) return false;
  fs.rmSync(lockPath, { force: true });
  return acquire(lockPath);
}
