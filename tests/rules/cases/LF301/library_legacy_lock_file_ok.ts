// An older version of this tool kept a plain lock *file* where proper-lockfile
// now keeps its lock directory (`${file}.lock`). The migration unlinks that
// name only when it is a file: unlink cannot remove the library's directory,
// so no live lock is touched.
import { promises as fsp } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { lock } from "proper-lockfile";

const STORE = join(homedir(), ".notes-store.json");
const STORE_LOCK = STORE + ".lock";

export async function migrateLegacyLock(): Promise<void> {
  try {
    const st = await fsp.lstat(STORE_LOCK);
    if (st.isFile()) await fsp.unlink(STORE_LOCK);
  } catch {
    /* nothing to migrate */
  }
}

export async function withStore<T>(work: () => Promise<T>): Promise<T> {
  const release = await lock(STORE, { retries: 3 });
  try {
    return await work();
  } finally {
    await release();
  }
}
