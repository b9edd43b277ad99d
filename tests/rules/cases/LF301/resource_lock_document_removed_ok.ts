// The daemon's info file is the resource proper-lockfile locks: the
// library's lock is `${infoPath}.lock`. Its holder writes the info file,
// and its release removes it, still under the library's lock, before letting
// that lock go. Nobody else holds the lock meanwhile, so no successor's file
// is deleted (the look at line 14 runs before the lock, and is not what the
// removal acts on).
import { lock } from "proper-lockfile";
import fs from "node:fs/promises";

const INFO = "/tmp/tool/daemon.json";

export async function acquire(): Promise<() => Promise<void>> {
  try {
    await fs.access(INFO);
  } catch {
    await fs.writeFile(INFO, "{}");
  }
  const releaseLock = await lock(INFO, { retries: 0, stale: 60000 });
  await fs.writeFile(INFO, JSON.stringify({ pid: process.pid }));
  return async () => {
    try {
      await fs.unlink(INFO);
    } catch {
      // gone already
    }
    await releaseLock();
  };
}
