// The lock is removed through a remover imported from the project's own
// sibling module (its body is in another file; its name says it removes):
// after the failed mkdir and a look at the lock (a takeover by name), and
// as the release of a lock the module breaks.
import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { removePath } from "./fs-utils.js";

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function acquireLockDir(lockDir: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await mkdir(lockDir);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== "EEXIST") throw err;
      if (!(await isDirectory(lockDir))) throw new Error("not a directory");
      await removePath(lockDir);
    }
  }
  throw new Error("busy");
}

export async function withWriteLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const lockDir = join(root, ".novel.lock");
  await acquireLockDir(lockDir);
  try {
    return await fn();
  } finally {
    await removePath(lockDir);
  }
}
