// The first exclusive create's failure is swallowed, but nothing goes on
// unlocked: the function then judges the holder and either throws (alive)
// or breaks the lock and creates it again, a create whose failure throws.
// Every normal return holds the lock. (The takeover's removal by name is
// LF301's question, not this rule's.)
import { promises as fsp, readFileSync } from "node:fs";

const LOCK_FILE = "/tmp/example-tool.lock";

function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function acquireLock(): Promise<void> {
  try {
    await fsp.writeFile(LOCK_FILE, String(process.pid), { flag: "wx" });
    return;
  } catch {}
  const pid = Number(readFileSync(LOCK_FILE, "utf8"));
  if (isPidAlive(pid)) throw new Error("busy");
  await fsp.unlink(LOCK_FILE);
  await fsp.writeFile(LOCK_FILE, String(process.pid), { flag: "wx" });
}
