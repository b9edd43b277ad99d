// acquireLock() reports whether it took the lock, and its caller checks.
// But any error while taking it (another holder's EEXIST, the lock
// directory not writable) lands in a catch that returns `true` too:
// "proceed anyway on error". The caller's check passes on the failure, and
// the speech plays without the lock. LF101 at the catch.
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

const LOCK_DIR = "/tmp/voice-locks";

async function acquireLock(key: string): Promise<boolean> {
  const lockFile = join(LOCK_DIR, `${key}.lock`);
  try {
    await mkdir(LOCK_DIR, { recursive: true });
    await writeFile(lockFile, String(process.pid), { flag: "wx" });
    return true;
  } catch (e) {
    console.error(`failed to acquire lock: ${e}`);
    return true; // proceed anyway on error
  }
}

async function releaseLock(key: string): Promise<void> {
  const lockFile = join(LOCK_DIR, `${key}.lock`);
  const owner = await readFile(lockFile, "utf8").catch(() => "");
  if (owner === String(process.pid)) {
    await unlink(lockFile);
  }
}

export async function speak(key: string, play: () => Promise<void>): Promise<void> {
  const hasLock = await acquireLock(key);
  if (!hasLock) return;
  try {
    await play();
  } finally {
    await releaseLock(key);
  }
}
