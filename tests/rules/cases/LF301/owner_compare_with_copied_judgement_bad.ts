// A name bound to a copy of another value (`judged = last.pid`, what an
// earlier look read from the lock) is no token of this process: the compare
// is the takeover's "still the holder I judged dead", and the removal by name
// after it races another breaker that judged the same holder.
import * as fs from "node:fs";

let last: { pid: number } = { pid: 0 };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function acquire(lockPath: string): void {
  fs.writeFileSync(lockPath, JSON.stringify({ pid: process.pid }), { flag: "wx" });
}

export function look(lockPath: string): void {
  last = JSON.parse(fs.readFileSync(lockPath, "utf8"));
}

export function breakIfDead(lockPath: string): void {
  const judged = last.pid;
  if (alive(judged)) return;
  const again = JSON.parse(fs.readFileSync(lockPath, "utf8"));
  if (again.pid === judged) fs.unlinkSync(lockPath);
}
