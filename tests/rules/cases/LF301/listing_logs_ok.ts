// Old log files pruned by age: a listing of logs, not of locks, is no lock
// sweep whatever it removes.
import { readdirSync, statSync, unlinkSync } from "fs";
import { join } from "path";

export function pruneLogs(logDir: string, maxAgeMs: number): void {
  for (const name of readdirSync(logDir)) {
    const file = join(logDir, name);
    if (Date.now() - statSync(file).mtimeMs > maxAgeMs) {
      unlinkSync(file);
    }
  }
}
