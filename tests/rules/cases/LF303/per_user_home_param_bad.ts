// A daemon's pid file under a directory the module is handed and calls a
// home (`toolHome`, given by the caller). A catch that reads every error of
// the probe as dead takes EPERM for dead: a daemon started with sudo under
// that home is alive and loses its pid file. Reported.
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
