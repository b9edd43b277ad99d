// The pid record is a lock its holder writes (and reap() breaks when its
// owner is dead); touch() reads it back, changes
// one field and writes it again, swallowing a failed write. That write takes
// no lock (it writes back what it read, not this process's claim), so its
// catch swallows no failed acquisition.
import { promises as fs } from "node:fs";

const LOCK = "/tmp/tool/daemon.lock";

interface Info {
  pid: number;
  lastAccess: string;
}

export async function claim(): Promise<boolean> {
  try {
    await fs.writeFile(LOCK, JSON.stringify({ pid: process.pid, lastAccess: "" }), { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}

async function readInfo(): Promise<Info | null> {
  try {
    return JSON.parse(await fs.readFile(LOCK, "utf8")) as Info;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function reap(): Promise<void> {
  const info = await readInfo();
  if (info && !alive(info.pid)) await fs.unlink(LOCK);
}

export async function touch(): Promise<void> {
  const info = await readInfo();
  if (!info) return;
  info.lastAccess = new Date().toISOString();
  try {
    await fs.writeFile(LOCK, JSON.stringify(info));
  } catch {
    // the daemon may be shutting down
  }
}
