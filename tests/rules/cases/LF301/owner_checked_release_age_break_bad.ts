// An owner-checked release of a lock the module takes over on its recorded
// age alone: a holder paused between reading its record and removing the lock
// loses it to a newcomer meanwhile, and then deletes the newcomer's lock.
import * as fs from "node:fs";

const LOCK = "/tmp/worker.lock";
const STALE_MS = 30 * 60 * 1000;

export function acquire(): boolean {
  if (fs.existsSync(LOCK)) {
    const held = JSON.parse(fs.readFileSync(LOCK, "utf8"));
    if (Date.now() - held.startedAt < STALE_MS) return false;
  }
  fs.writeFileSync(LOCK, JSON.stringify({ pid: process.pid, startedAt: Date.now() }));
  return true;
}

export function release(): void {
  if (!fs.existsSync(LOCK)) return;
  const held = JSON.parse(fs.readFileSync(LOCK, "utf8"));
  if (held.pid === process.pid) {
    fs.unlinkSync(LOCK);
  }
}
