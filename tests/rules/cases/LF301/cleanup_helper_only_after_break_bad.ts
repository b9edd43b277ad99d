// A tap publishes its output file and an owner record; a newcomer that finds
// the record's owner dead cleans both up through a helper. The helper is
// called only from that takeover, so its removal is the takeover's step:
// reported once, at the removal, naming the call (and not again at the call).
import { readFileSync, rmSync, writeFileSync } from "node:fs";

function ownerAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function removeDeadFiles(outputPath: string, ownerPath: string): void {
  try {
    rmSync(outputPath, { force: true });
  } catch {}
  try {
    rmSync(ownerPath, { force: true });
  } catch {}
}

export function adopt(outputPath: string, ownerPath: string): boolean {
  let pid = 0;
  try {
    pid = parseInt(readFileSync(ownerPath, "utf8"), 10);
  } catch {
    pid = 0;
  }
  if (pid && ownerAlive(pid)) return false;
  removeDeadFiles(outputPath, ownerPath);
  writeFileSync(ownerPath, String(process.pid), { flag: "wx" });
  return true;
}
