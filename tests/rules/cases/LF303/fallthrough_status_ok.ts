// A catch that falls through to a status answer: the code after the try
// neither removes anything nor gives a dead verdict, so EPERM read there
// breaks no lock (and the record's start time rules out a reused pid).
import { openSync, readFileSync, closeSync, statSync } from "node:fs";

export function acquire(lockPath: string): boolean {
  try {
    closeSync(openSync(lockPath, "wx"));
    return true;
  } catch {
    return false;
  }
}

export function describe(lockPath: string): string {
  const rec = JSON.parse(readFileSync(lockPath, "utf8")) as { pid: number; startTime: number };
  if (rec.startTime !== statSync(`/proc/${rec.pid}`).ctimeMs) return "owner gone";
  try {
    process.kill(rec.pid, 0);
    return `held by ${rec.pid}`;
  } catch (err) {
    console.log("probe failed", err);
  }
  return `recorded owner ${rec.pid} not reachable`;
}
