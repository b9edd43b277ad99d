// A start command probes the daemon's pid file (a different file from the
// start lock), then takes and releases the start lock through helpers. The
// removals inside the helpers are reported there (the age break, and the
// release of a lock the module breaks); the calls of the helpers after the
// probe are the same root bugs and are not reported again.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";

function lockPathOf(dir: string): string {
  return `${tmpdir()}/start-${Buffer.from(dir).toString("hex")}.lock`;
}

function daemonRunning(pidPath: string): boolean {
  try {
    process.kill(Number(readFileSync(pidPath, "utf8")), 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function tryAcquire(dir: string): boolean {
  const lockPath = lockPathOf(dir);
  try {
    if (existsSync(lockPath) && Date.now() - Number(readFileSync(lockPath, "utf8")) > 30_000) {
      unlinkSync(lockPath);
    }
    writeFileSync(lockPath, String(Date.now()), { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}

function release(dir: string): void {
  try {
    unlinkSync(lockPathOf(dir));
  } catch {
    /* already gone */
  }
}

export function start(dir: string, pidPath: string, spawnDaemon: () => void): boolean {
  if (daemonRunning(pidPath)) return true;
  if (!tryAcquire(dir)) return false;
  try {
    spawnDaemon();
    return true;
  } finally {
    release(dir);
  }
}
