// The exclusive create sits in a local closure; the caller's try handles its
// EEXIST, so the module relies on the create's exclusivity: a lock. The
// verdict helper reads the pid, judges it dead and removes the lock by name,
// so two contenders that both judged it stale race (line 20).
import { closeSync, openSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";

const LOCK_PATH = "/tmp/tool/run.lock";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function reapIfDead(): boolean {
  if (alive(parseInt(readFileSync(LOCK_PATH, "utf8"), 10))) return false;
  unlinkSync(LOCK_PATH);
  return true;
}

export function acquire(): void {
  const write = () => {
    const fd = openSync(LOCK_PATH, "wx");
    try {
      writeFileSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
  };
  try {
    write();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST" || !reapIfDead()) throw err;
    write();
  }
}
