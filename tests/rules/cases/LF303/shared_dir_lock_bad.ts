// The same probe on a lock any user can hold: an override that falls back
// to the temp directory.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const LOCK = path.join(process.env.TOOL_LOCK_DIR || os.tmpdir(), "tool.lock");

export function lockHeld(): boolean {
  const pid = parseInt(fs.readFileSync(LOCK, "utf8"), 10);
  try {
    process.kill(pid, 0);
  } catch {
    fs.unlinkSync(LOCK);
    return false;
  }
  return true;
}

export function createLock(): boolean {
  try {
    fs.writeFileSync(LOCK, String(process.pid), { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}
