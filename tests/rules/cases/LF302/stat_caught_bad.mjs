// The stat's failure is caught into a null (`await stat(p).catch(() => null)`):
// the age is still the stat's, and an old lock is taken over on it alone.
import { stat, unlink, writeFile } from "node:fs/promises";

const STALE_MS = 30000;

export async function tryLock(lock) {
  try {
    await writeFile(lock, String(process.pid), { flag: "wx" });
    return true;
  } catch (e) {
    if (e.code !== "EEXIST") throw e;
  }
  const st = await stat(lock).catch(() => null);
  if (st && Date.now() - st.mtimeMs > STALE_MS) {
    await unlink(lock).catch(() => {});
  }
  return false;
}
