// A mkdir lock taken over blind: when the create keeps failing past a
// deadline, the lock is removed by name with no look at its holder, and the
// release removes it by name even when the takeover's own create failed.
import { mkdir, rmdir } from "node:fs/promises";

export async function withDirLock(dir, fn) {
  const lock = `${dir}/.lock`;
  const giveUp = Date.now() + 5000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (Date.now() > giveUp) {
        await rmdir(lock).catch(() => {});
        await mkdir(lock).catch(() => {});
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await fn();
  } finally {
    await rmdir(lock).catch(() => {});
  }
}
