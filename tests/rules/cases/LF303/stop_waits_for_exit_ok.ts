// A stop command: it signals the daemon named in the lock, then polls
// kill(pid, 0) until that process has exited, and removes the lock only
// after. The probe waits for a process this function has just told to exit
// (its SIGTERM succeeded, so the pid is this user's process): EPERM cannot
// come from it, and no owner is judged alive or dead by it. Its removal is
// the stop's cleanup, not a takeover.
import { readFileSync, unlinkSync } from "node:fs";

const LOCK = "/tmp/tool/daemon.lock";

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function stopDaemon(): Promise<boolean> {
  const info = JSON.parse(readFileSync(LOCK, "utf8")) as { pid: number };
  process.kill(info.pid, "SIGTERM");
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(info.pid, 0);
      await sleep(100);
    } catch {
      break;
    }
  }
  unlinkSync(LOCK);
  return true;
}

