// The wait for the lock file to go away also ends when its budget runs
// out, with the lock still there, and nothing after the loop asks which
// ended it: the pid is written over the holder's and the work runs beside
// it. LF101 at the loop's condition. (The release by name after the wait's
// look is LF301's question.)
import fs from "node:fs";

export function withLock<T>(lockFile: string, fn: () => T): T {
  const maxWait = 10_000;
  const interval = 50;
  let waited = 0;
  while (fs.existsSync(lockFile) && waited < maxWait) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, interval);
    waited += interval;
  }
  fs.writeFileSync(lockFile, String(process.pid));
  try {
    return fn();
  } finally {
    fs.unlinkSync(lockFile);
  }
}
