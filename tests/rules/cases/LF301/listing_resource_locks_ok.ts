// The module locks its files with proper-lockfile (`<file>.lock` directories
// the library manages); the `.lock` files it lists and prunes are the
// sentinel resources those locks guard, not locks.
import * as fs from "fs";
import * as path from "path";
import lockfile from "proper-lockfile";

export async function withSentinel(dir: string, name: string, fn: () => Promise<void>): Promise<void> {
  const sentinel = path.join(dir, `${name}.lock`);
  fs.writeFileSync(sentinel, "");
  const release = await lockfile.lock(sentinel);
  try {
    await fn();
  } finally {
    await release();
  }
}

export function pruneSentinels(dir: string, maxAgeMs: number): void {
  for (const file of fs.readdirSync(dir)) {
    if (!file.endsWith(".lock")) continue;
    const p = path.join(dir, file);
    if (Date.now() - fs.statSync(p).mtimeMs > maxAgeMs) fs.unlinkSync(p);
  }
}
