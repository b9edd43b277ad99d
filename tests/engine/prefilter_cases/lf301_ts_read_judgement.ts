// LF301 (TS/JS): a stale break judged by reading the lock's record, with no
// try/catch, stat, exists or kill in the file: the read is the judgement, so
// the prefilter must let the file through (line 8 is the finding).
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";

export function breakStale(path: string): void {
  const ts = parseInt(readFileSync(path, "utf-8").split("\n")[1], 10);
  if (Date.now() - ts > 300000) unlinkSync(path);
}

export function take(path: string): void {
  writeFileSync(path, `${process.pid}\n${Date.now()}`, { flag: "wx" });
}
