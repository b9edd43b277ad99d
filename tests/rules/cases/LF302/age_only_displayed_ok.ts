// A single-instance lock: a live recorded holder makes the start fail, and
// the holder's uptime (the time recorded in the lock) only words the error.
// The timeout diagnostic prints how old the lock directory is and whether it
// would look stale, but nothing breaks a lock on either age: a paused holder
// keeps its lock. No LF302. (The removals by name are LF301's question.)
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const STALE_MS = 30_000;

interface Holder {
  pid: number;
  startTime: number;
}

interface Diagnostic {
  ageMs: number | "unknown";
  stale: boolean | "unknown";
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function diagnose(lockDir: string): Diagnostic {
  const result: Diagnostic = { ageMs: "unknown", stale: "unknown" };
  let age: number;
  try {
    age = Date.now() - statSync(lockDir).mtimeMs;
  } catch {
    return result;
  }
  result.ageMs = age;
  result.stale = age > STALE_MS;
  return result;
}

function describe(lockDir: string, d: Diagnostic): string {
  return `could not lock ${lockDir}: age=${d.ageMs} stale=${d.stale}`;
}

export function acquire(lockDir: string): void {
  try {
    mkdirSync(lockDir);
  } catch {
    const holder = JSON.parse(readFileSync(join(lockDir, "owner.json"), "utf8")) as Holder;
    if (alive(holder.pid)) {
      const seconds = Math.floor((Date.now() - holder.startTime) / 1000);
      const minutes = Math.floor(seconds / 60);
      const running = minutes > 0 ? `${minutes} minutes` : `${seconds} seconds`;
      throw new Error(`another instance (pid ${holder.pid}) has been running for ${running}`);
    }
    throw new Error(describe(lockDir, diagnose(lockDir)));
  }
  writeFileSync(join(lockDir, "owner.json"), JSON.stringify({ pid: process.pid, startTime: Date.now() }));
}

export function release(lockDir: string): void {
  rmSync(lockDir, { recursive: true, force: true });
}
