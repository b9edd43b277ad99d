// A build cache compares its output's mtime with the time of the source it
// was made from (handed in by the caller): a freshness check of two files,
// not the age of a lock against the clock. No LF302. (The lock it takes is
// created exclusively and released by its holder.)
import { rmSync, statSync, writeFileSync } from "node:fs";

export function rebuildIfOlder(outPath: string, sourceMtimeMs: number, build: () => void): void {
  const lock = `${outPath}.lock`;
  writeFileSync(lock, String(process.pid), { flag: "wx" });
  try {
    let outMtime = 0;
    try {
      outMtime = statSync(outPath).mtimeMs;
    } catch {
      outMtime = 0;
    }
    if (sourceMtimeMs - outMtime > 0) build();
  } finally {
    rmSync(lock, { force: true });
  }
}
