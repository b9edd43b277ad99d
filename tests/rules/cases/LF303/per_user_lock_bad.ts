// Locks under os.homedir(), $HOME or the XDG data directory, probed with a
// catch that reads every error as dead: EPERM is still a live holder there
// (a run with sudo, a daemon started by root, wrote its pid into the user's
// home), so each probe is reported. The records carry the owner's startTime
// (no pid reuse finding).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const LOCK = path.join(process.env.HOME || process.env.USERPROFILE || "", ".claude", "extractor.lock");

function dataFile(port: number): string {
  const dataHome = process.env.XDG_DATA_HOME || path.join(os.homedir(), ".local", "share");
  return path.join(dataHome, "tool", `.server-${port}.json`);
}

export function lockHeld(): boolean {
  const [pidStr, started] = fs.readFileSync(LOCK, "utf8").split(":");
  const pid = parseInt(pidStr, 10);
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return started === startTime(pid);
}

export function createLock(): boolean {
  try {
    fs.writeFileSync(LOCK, `${process.pid}:${startTime(process.pid)}`, { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}

function startTime(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[21];
}

export function serverAlive(port: number): boolean {
  const rec = JSON.parse(fs.readFileSync(dataFile(port), "utf8"));
  try {
    process.kill(rec.pid, 0);
  } catch {
    return false;
  }
  return rec.startTime === startTime(rec.pid);
}
