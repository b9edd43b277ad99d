// A daemon manager: the pid read from its one pid file is probed with a catch
// that reads every error as dead, and the verdict removes that pid file
// (status) and lets start() spawn a second daemon beside a live one owned by
// another user.
import { spawn } from "child_process";
import { readFileSync, writeFileSync, unlinkSync } from "fs";
import { join } from "path";

const PID_FILE = join(process.cwd(), ".agent.pid");

function readPid() {
  try {
    return parseInt(readFileSync(PID_FILE, "utf8").trim(), 10);
  } catch {
    return null;
  }
}

function isRunning(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function cleanPid() {
  try { unlinkSync(PID_FILE); } catch { /* ignore */ }
}

export function start(entry) {
  if (isRunning(readPid())) return false;
  const child = spawn(process.execPath, [entry], { detached: true, stdio: "ignore" });
  writeFileSync(PID_FILE, String(child.pid));
  child.unref();
  return true;
}

export function status() {
  const pid = readPid();
  if (isRunning(pid)) return pid;
  if (pid) cleanPid();
  return null;
}
