// An exclusive-create lock retried until a deadline; when the deadline
// passes, the lock is deleted by name and the caller proceeds: whoever holds
// it (alive, merely slow) loses it. The release by name then deletes the
// lock of whoever took it after such a break.
import { closeSync, mkdirSync, openSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";

const LOCK_TIMEOUT_MS = 5_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function acquireLock(statePath: string): Promise<void> {
  const lock = `${statePath}.lock`;
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  mkdirSync(dirname(statePath), { recursive: true });
  while (Date.now() < deadline) {
    try {
      closeSync(openSync(lock, "wx"));
      return;
    } catch {
      await sleep(20);
    }
  }
  try {
    unlinkSync(lock);
  } catch {
    /* already gone */
  }
}

export function releaseLock(statePath: string): void {
  try {
    unlinkSync(`${statePath}.lock`);
  } catch {
    /* already gone */
  }
}
