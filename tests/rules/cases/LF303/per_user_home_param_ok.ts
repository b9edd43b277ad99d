// A daemon's pid file under a directory the module is handed and calls a
// home (`toolHome`, given by the caller: its value is not in this module).
// Only that user's daemon writes there, so EPERM is another user's reused
// pid and "dead" is the right reading.
import * as fs from "node:fs";
import * as path from "node:path";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export class Daemon {
  acquire(toolHome: string): void {
    const pidFile = path.join(toolHome, "daemon.pid");
    const pid = parseInt(fs.readFileSync(pidFile, "utf8"), 10);
    if (isAlive(pid)) throw new Error(`running (started ${fs.statSync(`/proc/${pid}`).ctimeMs})`);
    fs.writeFileSync(pidFile, String(process.pid));
  }
}
