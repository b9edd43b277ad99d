// The module locks its data files with proper-lockfile, which makes
// `<file>.lock` beside each one, and a cleanup sweeps the directory for
// those `.lock` entries: each is judged stale by its mtime and removed by
// name (line 28, after the age test at line 27), deleting a live holder's
// lock when its holder is only slow. The listing is kept in a const
// filtered for `.lock` names.
import fs from "fs-extra";
import path from "path";
import properLockfile from "proper-lockfile";

export async function withFile<T>(filePath: string, fn: () => Promise<T>): Promise<T> {
  const release = await properLockfile.lock(filePath, { retries: 5 });
  try {
    return await fn();
  } finally {
    await release();
  }
}

export async function cleanupStaleLocks(directory: string): Promise<void> {
  const files = await fs.readdir(directory);
  const lockFiles = files.filter((file) => file.endsWith(".lock"));
  for (const lockFile of lockFiles) {
    const lockPath = path.join(directory, lockFile);
    const stats = await fs.stat(lockPath);
    const age = Date.now() - stats.mtime.getTime();
    if (age > 300000) {
      await fs.remove(lockPath);
    }
  }
}
