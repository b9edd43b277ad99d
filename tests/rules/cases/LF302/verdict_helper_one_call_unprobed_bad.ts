// As verdict_helper_after_dead_probe_ok.ts, but the wait loop also calls
// isStale() on its own, without asking the recorded holder, and removes the
// lock directory by name on its answer: a live holder that is merely paused
// loses its lock. LF302 at the age the helper returns.
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
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
  rmSync(lockDir, { recursive: true, force: true });
  return true;
}

export function acquire(lockDir: string, staleMs: number): boolean {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      mkdirSync(lockDir);
      return true;
    } catch {
      if (isStale(lockDir, staleMs)) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      tryReclaim(lockDir, staleMs);
    }
  }
  return false;
}
