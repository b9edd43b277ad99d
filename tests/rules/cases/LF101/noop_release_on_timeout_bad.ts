// A lock helper takes an O_EXCL lock file (breaking one older than a minute)
// and hands its caller the release;
// when the wait's deadline passes it hands back a release that does nothing
// ("best effort"), so `withStateLock` runs the read-modify-write of the
// shared state file with no lock, as if it held it.
import { closeSync, openSync, statSync, unlinkSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";

const WAIT_MS = 3_000;

export async function lockFile(target: string): Promise<() => void> {
  const lockPath = `${target}.lock`;
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    try {
      closeSync(openSync(lockPath, "wx"));
      return () => {
        unlinkSync(lockPath);
      };
    } catch {
      if (Date.now() - statSync(lockPath).mtimeMs > 60_000) unlinkSync(lockPath);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return () => {};
}

export async function withStateLock(statePath: string, key: string): Promise<void> {
  const release = await lockFile(statePath);
  try {
    const state = JSON.parse(await readFile(statePath, "utf8")) as Record<string, number>;
    state[key] = (state[key] ?? 0) + 1;
    await writeFile(statePath, JSON.stringify(state));
  } finally {
    release();
  }
}
