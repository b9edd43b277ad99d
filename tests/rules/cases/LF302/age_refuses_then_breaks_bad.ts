// Not a refusal: the old lock's branch throws only after it removed the lock
// (a takeover with an error), and the young branch that leaves is followed
// by a removal, not a throw.
import * as fs from "node:fs";

const STALE_MS = 30_000;

function breakOld(dir: string): void {
  const st = fs.statSync(dir);
  if (Date.now() - st.mtimeMs > STALE_MS) {
    fs.rmdirSync(dir);
    throw new Error(`${dir} was stale; try again`);
  }
}

function breakUnlessYoung(dir: string): boolean {
  const st = fs.statSync(dir);
  if (Date.now() - st.mtimeMs < STALE_MS) return false;
  fs.rmdirSync(dir);
  return true;
}

export function acquire(dir: string): boolean {
  try {
    fs.mkdirSync(dir);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  breakOld(dir);
  return breakUnlessYoung(dir);
}
