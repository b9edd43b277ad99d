// The same diagnostic as in age_only_displayed_ok.ts, but the acquire also
// reads its `stale` field to decide a takeover: the lock directory's age
// breaks a lock whose holder may only be paused. LF302 at the comparison.
import { mkdirSync, rmSync, statSync } from "node:fs";

const STALE_MS = 30_000;

interface Diagnostic {
  ageMs: number | "unknown";
  stale: boolean | "unknown";
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

export function acquire(lockDir: string): boolean {
  try {
    mkdirSync(lockDir);
    return true;
  } catch {
    const d = diagnose(lockDir);
    if (d.stale === true) {
      rmSync(lockDir, { recursive: true, force: true });
      mkdirSync(lockDir);
      return true;
    }
    console.error(`lock busy: age=${d.ageMs}`);
    return false;
  }
}

export function release(lockDir: string): void {
  rmSync(lockDir, { recursive: true, force: true });
}
