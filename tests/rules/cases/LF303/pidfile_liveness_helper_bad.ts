// A CLI's pid-file module: the daemon's pid is read from its pid file and
// judged by the exported liveness helper, which reads EPERM (a live daemon
// of another user) as "not running", so a second daemon is started.
import fs from "node:fs";

export function readPid(pidPath: string): number | null {
  try {
    const pid = Number(fs.readFileSync(pidPath, "utf-8").trim());
    return Number.isFinite(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

export function isPidRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
