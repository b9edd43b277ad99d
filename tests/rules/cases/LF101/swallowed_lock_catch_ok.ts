// Failures that are not swallowed: a lock library's error rethrown, a
// contention error told apart (EEXIST) and the caller told, an error handed
// to the callback, and an informational pid file whose write may fail.
import * as fs from "fs";
import lockfile from "proper-lockfile";

export function withLock(path: string, fn: () => void): void {
  let release: () => void;
  try {
    release = lockfile.lockSync(path);
  } catch (err) {
    throw new Error(`state is locked: ${String(err)}`);
  }
  try {
    fn();
  } finally {
    release();
  }
}

export function tryLock(lockPath: string): boolean {
  try {
    fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
    return true;
  } catch (e: any) {
    if (e.code === "EEXIST") return false;
    throw e;
  }
}

export function mkdirLock(dir: string, cb: (err: Error | null) => void): void {
  try {
    fs.mkdirSync(dir);
    cb(null);
  } catch (error) {
    cb(error as Error);
  }
}

export function writePidFile(pidPath: string): void {
  try {
    fs.writeFileSync(pidPath, String(process.pid));
  } catch (err) {
    console.error("could not write the pid file", err);
  }
  startServer();
}

declare function startServer(): void;
