// The same wait, but the code asks after the loop whether the lock is still
// there and gives up if so: the lock is written only when the wait ended
// because it went away. (A check-then-write is still no exclusive create;
// that is not LF101's question, nor is the release by name: LF301.) No LF101.
import fs from "node:fs";

export function withLock<T>(lockFile: string, fn: () => T): T {
  const maxWait = 10_000;
  const interval = 50;
  let waited = 0;
  while (fs.existsSync(lockFile) && waited < maxWait) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, interval);
    waited += interval;
  }
  if (fs.existsSync(lockFile)) throw new Error(`timed out waiting for ${lockFile}`);
  fs.writeFileSync(lockFile, String(process.pid));
  try {
    return fn();
  } finally {
    fs.unlinkSync(lockFile);
  }
}
