// A lock's age read through a name assigned inside a try, and through a
// stat promise's `.then`: both judge a live-but-paused holder stale.
import { promises as fsp, statSync, writeFileSync, unlinkSync } from "node:fs";

export function tryTake(lockPath, staleMs) {
  try {
    writeFileSync(lockPath, String(process.pid), { flag: "wx" });
    return true;
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
  }
  let born;
  try {
    born = statSync(lockPath).mtimeMs;
  } catch {
    return false;
  }
  if (Date.now() - born > staleMs) {
    unlinkSync(lockPath);
  }
  return false;
}

const SPOOL_LOCK = "/var/spool/tool/.lock";

export async function takeSpool() {
  try {
    await fsp.mkdir(SPOOL_LOCK);
    return true;
  } catch {
    return false;
  }
}

export function spoolFresh(staleMs) {
  const cutoff = Date.now() - staleMs;
  return fsp.stat(SPOOL_LOCK).then((st) => cutoff < st.mtimeMs);
}
