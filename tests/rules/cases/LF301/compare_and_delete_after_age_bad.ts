// A stale break on the recorded time (line 16) that re-reads the lock (line
// 18) and removes it only when the bytes are the ones it judged stale (line
// 19): that narrows the window but binds nothing, and a successor that takes
// the lock between the re-read and the unlink loses it. The re-read confirms
// the age's verdict; it is no owner check.
import fs from "fs";

export function acquire(lockPath: string): boolean {
  let observed: string | null = null;
  try {
    observed = fs.readFileSync(lockPath, "utf-8");
  } catch {
    observed = null;
  }
  if (observed !== null) {
    const rec = JSON.parse(observed) as { pid: number; at: number };
    if (Date.now() - rec.at > 60_000) {
      try {
        const reread = fs.readFileSync(lockPath, "utf-8");
        if (reread === observed) fs.unlinkSync(lockPath);
      } catch {
        // gone already
      }
    }
  }
  try {
    fs.writeFileSync(lockPath, JSON.stringify({ pid: process.pid, at: Date.now() }), { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}
