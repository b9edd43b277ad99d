// A daemon's pid file module: every function is exported, and the removal
// helper is called here only after a judgement (the recorded pid found dead)
// or after the stop command signalled the daemon. Each judged call is its own
// stale takeover: a starter that wrote a fresh pid file between the read and
// the removal loses it, and a second daemon starts. removePid()'s own unlink
// is no holder's release in this file (nothing here takes the pid file
// before calling it), so it is not reported again; the stop's cleanup after
// SIGTERM is not a takeover.
import { readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

export function pidPath(stateDir: string): string {
  return join(stateDir, "daemon.pid");
}

export async function writePid(stateDir: string): Promise<void> {
  await writeFile(pidPath(stateDir), String(process.pid));
}

export async function readPid(stateDir: string): Promise<number | null> {
  try {
    const pid = Number.parseInt((await readFile(pidPath(stateDir), "utf8")).trim(), 10);
    return Number.isNaN(pid) ? null : pid;
  } catch {
    return null;
  }
}

export async function removePid(stateDir: string): Promise<void> {
  await unlink(pidPath(stateDir)).catch(() => undefined);
}

export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function daemonPid(stateDir: string): Promise<number | null> {
  const pid = await readPid(stateDir);
  if (pid === null) return null;
  if (!running(pid)) {
    await removePid(stateDir);
    return null;
  }
  return pid;
}

export async function stop(stateDir: string): Promise<boolean> {
  const pid = await readPid(stateDir);
  if (pid === null) return false;
  if (!running(pid)) {
    await removePid(stateDir);
    return false;
  }
  process.kill(pid, "SIGTERM");
  await removePid(stateDir);
  return true;
}
