// Look-alikes: a lock nothing in the module ever breaks, released by name by
// its holder; and a server's published record (url and pid) in a module
// whose lock is another file, dropped when its pid is gone.
import { openSync, closeSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";

const LOCK = "/run/tool/tool.lock";
const INFO = "/run/tool/server.json";

export function withLock(fn: () => void): boolean {
  let fd: number;
  try {
    fd = openSync(LOCK, "wx");
  } catch {
    return false;
  }
  try {
    fn();
  } finally {
    closeSync(fd);
    unlinkSync(LOCK);
  }
  return true;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e.code === "EPERM";
  }
}

export function serverUrl(): string | undefined {
  try {
    const info = JSON.parse(readFileSync(INFO, "utf8"));
    if (running(info.pid)) return info.url;
    unlinkSync(INFO);
  } catch {
    /* none */
  }
  return undefined;
}

export function publish(url: string) {
  writeFileSync(INFO, JSON.stringify({ url, pid: process.pid }));
}
