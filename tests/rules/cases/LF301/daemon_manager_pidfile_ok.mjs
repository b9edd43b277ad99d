// A daemon manager: readPid(), isRunning(pid) and cleanPid() over one pid
// file it writes plainly with the child's pid. Nothing here is created
// exclusively: two starts that both judge the old pid dead spawn two daemons
// whether or not the file is removed, so its removal by name is no lock
// removal (the flaw is the non-exclusive start).
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
  } catch (e) {
    return e.code === "EPERM";
  }
}

function cleanPid() {
  try { unlinkSync(PID_FILE); } catch { /* ignore */ }
}

export function start(entry) {
  const pid = readPid();
  if (isRunning(pid)) return false;
  cleanPid();
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
