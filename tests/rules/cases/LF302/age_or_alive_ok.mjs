// Young, or its recorded holder alive: either one leaves. The lock is broken
// only when it is old and its holder is gone, so a paused holder keeps it.
import { readFile, stat, unlink, writeFile } from "node:fs/promises";

const STALE_MS = 30000;

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

async function breakIfDead(lock) {
  const owner = Number(await readFile(lock, "utf8"));
  const st = await stat(lock);
  if (Date.now() - st.mtimeMs <= STALE_MS || isAlive(owner)) return;
  await unlink(lock);
}

export async function tryLock(lock) {
  try {
    await writeFile(lock, String(process.pid), { flag: "wx" });
    return true;
  } catch (e) {
    if (e.code !== "EEXIST") throw e;
  }
  await breakIfDead(lock);
  return false;
}
