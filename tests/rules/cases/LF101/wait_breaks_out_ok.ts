// The same wait as wait_gives_up_then_writes_bad.ts, but its loop has a way
// out of its own (`break` once the budget is spent) and the code after it
// asks whether the budget ran out, throwing then: the write runs only when
// the lock went away. A loop that breaks is left to its own exits: no LF101.
// (The release by name after the wait's look is LF301's question.)
import fs from "node:fs";

export function withLock<T>(lockFile: string, fn: () => T): T {
  const maxWait = 10_000;
  const interval = 50;
  let waited = 0;
  while (fs.existsSync(lockFile) && waited < maxWait) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, interval);
    waited += interval;
    if (waited >= maxWait) {
      break;
    }
  }
  if (waited >= maxWait) throw new Error(`timed out waiting for ${lockFile}`);
  fs.writeFileSync(lockFile, String(process.pid));
  try {
    return fn();
  } finally {
    fs.unlinkSync(lockFile);
  }
}
