// A cleanup command sweeps a directory of lock files: it reads each record
// and removes, by name, every lock whose recorded expiry has passed and every
// lock it cannot parse. No entry is this process's own, so each removal
// breaks someone's lock: a lock re-taken after the read (or one still being
// written by its creator, which reads as unparsable) is deleted.
import { promises as fs } from "fs";
import * as path from "path";

export async function acquire(filePath: string): Promise<void> {
  const lock = { expires_at: new Date(Date.now() + 5000).toISOString() };
  await fs.writeFile(`${filePath}.lock`, JSON.stringify(lock), { flag: "wx" });
}

export async function cleanupExpiredLocks(directory: string): Promise<number> {
  let cleaned = 0;
  for (const file of await fs.readdir(directory)) {
    if (!file.endsWith(".lock")) continue;
    const lockPath = path.join(directory, file);
    try {
      const lock = JSON.parse(await fs.readFile(lockPath, "utf-8"));
      if (new Date(lock.expires_at) < new Date()) {
        await fs.unlink(lockPath);
        cleaned++;
      }
    } catch {
      await fs.unlink(lockPath).catch(() => undefined);
    }
  }
  return cleaned;
}
