// A compare of the record with a value read from the same lock is no owner
// check: the takeover removes whatever holds the judged pid by name, after
// judging that owner dead. Two breakers that both judged it race.
import * as fs from "node:fs";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function takeOver(lockPath: string): void {
  const judged = Number(fs.readFileSync(lockPath, "utf8"));
  if (alive(judged)) return;
  const again = Number(fs.readFileSync(lockPath, "utf8"));
  if (again === judged) {
    fs.unlinkSync(lockPath);
  }
  fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
}
