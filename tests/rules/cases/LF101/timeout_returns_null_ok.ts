// The lock helper answers `null` when the wait's deadline passes, where it
// answers the release when it took the lock: its caller tells the two apart
// and skips the update. No unlocked fallback.
import { closeSync, openSync, statSync, unlinkSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";

export async function lockFile(target: string, waitMs: number): Promise<(() => void) | null> {
  const lockPath = `${target}.lock`;
  const deadline = Date.now() + waitMs;
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
  return null;
}

export async function bump(statePath: string, key: string): Promise<boolean> {
  const release = await lockFile(statePath, 3_000);
  if (!release) return false;
  try {
    const state = JSON.parse(await readFile(statePath, "utf8")) as Record<string, number>;
    state[key] = (state[key] ?? 0) + 1;
    await writeFile(statePath, JSON.stringify(state));
    return true;
  } finally {
    release();
  }
}
