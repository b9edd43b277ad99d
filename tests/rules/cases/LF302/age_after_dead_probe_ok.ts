// The sweep asks the recorded holder first and leaves its lock alone while
// it lives; only then does the recorded age decide (a dead holder's lock is
// old enough to clear). No live holder, paused or not, loses its lock to the
// age: no LF302. (The removals by name are LF301's question.)
import { readFile, rm } from "node:fs/promises";

interface Holder {
  pid: number;
  acquiredAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function clearIfDead(lockPath: string, maxAgeMs: number): Promise<boolean> {
  let holder: Holder;
  try {
    holder = JSON.parse(await readFile(lockPath, "utf8")) as Holder;
  } catch {
    return false;
  }
  if (alive(holder.pid)) {
    return false;
  }
  if (Date.now() - Date.parse(holder.acquiredAt) > maxAgeMs) {
    await rm(lockPath, { force: true });
    return true;
  }
  return false;
}
