// The liveness check answers with an object, and its catch calls the
// module's own helper that deletes the pid file: every error, EPERM included,
// is read as "the server is gone", so the pid file of a live server run by
// another user is deleted. The helper's removal is the catch's "dead" verdict,
// as a direct unlink would be.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const PID_FILE = join(process.cwd(), ".devserver.pid");

export function recordServer(port: number): void {
  writeFileSync(PID_FILE, JSON.stringify({ pid: process.pid, port }));
}

function readRecord(): { pid: number; port: number } | null {
  if (!existsSync(PID_FILE)) return null;
  try {
    return JSON.parse(readFileSync(PID_FILE, "utf8"));
  } catch {
    return null;
  }
}

function forgetServer(): void {
  try {
    unlinkSync(PID_FILE);
  } catch {
    /* already gone */
  }
}

export function serverStatus(): { up: boolean; port?: number } {
  const rec = readRecord();
  if (!rec) return { up: false };
  try {
    process.kill(rec.pid, 0);
    return { up: true, port: rec.port };
  } catch {
    forgetServer();
    return { up: false };
  }
}
