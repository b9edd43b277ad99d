// The lock's age decides only between waiting on a lock directory with no
// owner record yet (its maker is between the mkdir and the record write) and
// refusing an old one: no branch takes the lock over, so a paused holder
// keeps it.
import * as fs from "node:fs";
import * as path from "node:path";

const GRACE_MS = 30_000;

function verdict(dir: string): "held" | "free" {
  const st = fs.lstatSync(dir);
  if (!fs.existsSync(path.join(dir, "owner"))) {
    if (Date.now() - st.mtimeMs < GRACE_MS) return "held";
    throw new Error(`${dir}: a lock directory with no owner record; remove it by hand`);
  }
  return "held";
}

function refuseOld(dir: string): void {
  const st = fs.statSync(dir);
  if (Date.now() - st.mtimeMs > GRACE_MS) {
    throw new Error(`${dir} is older than ${GRACE_MS} ms`);
  }
}

export function acquire(dir: string): boolean {
  try {
    fs.mkdirSync(dir);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  refuseOld(dir);
  return verdict(dir) === "free";
}

export function release(dir: string): void {
  fs.rmdirSync(dir);
}
