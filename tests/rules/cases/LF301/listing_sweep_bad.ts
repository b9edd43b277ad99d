// A sweep over a directory of lock files, run at startup while other
// processes may hold them: each is judged stale (by its mtime, or by the time
// recorded in it) and removed by name.
import { readFileSync, readdirSync, statSync, unlinkSync } from "fs";
import { join, resolve } from "path";

export function sweepByMtime(lockDir: string, staleMs: number): void {
  for (const entry of readdirSync(lockDir)) {
    const entryPath = join(lockDir, entry);
    const st = statSync(entryPath);
    if (Date.now() - st.mtimeMs > staleMs) {
      unlinkSync(entryPath);
    }
  }
}

export function sweepByRecord(dir: string, staleMs: number): void {
  const now = Date.now();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith(".lock")) continue;
    const content = readFileSync(resolve(dir, file), "utf-8");
    const ts = parseInt(content.split("\n")[1], 10);
    if (now - ts > staleMs) {
      unlinkSync(resolve(dir, file));
    }
  }
}
