// The module's stale-lock remover is called only where a lock was judged
// (an unreadable record, a dead pid): it is the takeover's step, one root
// bug, reported once at its removal with the judged calls named, not again
// at each call.
import { promises as fsp, readFileSync } from "node:fs";

const LOCK_FILE = "/tmp/example-app.lock";

const isPidAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

const removeStaleLock = async (): Promise<void> => {
  try {
    await fsp.unlink(LOCK_FILE);
  } catch {}
};

export const acquireLock = async (): Promise<void> => {
  try {
    await fsp.writeFile(LOCK_FILE, String(process.pid), { flag: "wx" });
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  let pid = NaN;
  try {
    pid = Number(readFileSync(LOCK_FILE, "utf8"));
  } catch {}
  if (Number.isNaN(pid)) {
    await removeStaleLock();
  } else if (!isPidAlive(pid)) {
    await removeStaleLock();
  } else {
    throw new Error("busy");
  }
  await fsp.writeFile(LOCK_FILE, String(process.pid), { flag: "wx" });
};
