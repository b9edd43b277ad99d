// A daemon's pid file is written from a record its caller builds
// (`writePidfile({ pid: process.pid, ... })`), and read back and probed to
// decide whether the daemon runs: a pid file, not a stored document. The
// status check removes it by name once the recorded pid is judged dead, so
// a daemon that has just started and written its own is deleted.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "fs";

export function getPidfilePath(): string {
  return process.env["EXAMPLE_PIDFILE"] ?? "/run/example/daemon.pid";
}

export interface PidfileData {
  pid: number;
  port: number;
}

export function writePidfile(data: PidfileData): void {
  writeFileSync(getPidfilePath(), JSON.stringify(data), "utf8");
}

function readPidfile(): PidfileData | null {
  if (!existsSync(getPidfilePath())) return null;
  try {
    return JSON.parse(readFileSync(getPidfilePath(), "utf8")) as PidfileData;
  } catch {
    return null;
  }
}

export function removePidfile(): void {
  try {
    unlinkSync(getPidfilePath());
  } catch {
    /* already gone */
  }
}

function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function isDaemonRunning(): boolean {
  const data = readPidfile();
  if (!data) return false;
  if (!isPidAlive(data.pid)) {
    removePidfile();
    return false;
  }
  return true;
}
