// The clock is handed in (`nowMs`, "injected so tests stay deterministic"):
// a lock whose recorded time is older than staleMs is removed and taken,
// whether or not its holder is still working. LF302 at the comparison, the
// same as with Date.now() written inline.
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";

export function acquireFileLock(lockPath: string, nowMs: number, staleMs: number): boolean {
  const tryCreate = (): boolean => {
    try {
      writeFileSync(lockPath, JSON.stringify({ pid: process.pid, at: nowMs }), { flag: "wx" });
      return true;
    } catch {
      return false;
    }
  };
  if (tryCreate()) return true;
  let heldSince: number;
  try {
    heldSince = JSON.parse(readFileSync(lockPath, "utf8")).at;
  } catch {
    heldSince = statSync(lockPath).mtimeMs;
  }
  if (nowMs - heldSince <= staleMs) return false;
  rmSync(lockPath, { force: true });
  return tryCreate();
}
