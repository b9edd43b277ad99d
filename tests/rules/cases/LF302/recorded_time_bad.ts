// A refresh lock records "<pid>\n<ms>" when it is taken; a contender that
// finds it parses the recorded time and breaks the lock once it is five
// minutes old, whether or not its holder is still refreshing the token.
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";

const STALE_MS = 5 * 60 * 1000;

export function tryAcquire(path: string): boolean {
  try {
    writeFileSync(path, `${process.pid}\n${Date.now()}`, { flag: "wx" });
    return true;
  } catch (err: unknown) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") return false;
    const content = readFileSync(path, "utf-8");
    const ts = parseInt(content.split("\n")[1], 10);
    if (!Number.isNaN(ts) && Date.now() - ts > STALE_MS) {
      unlinkSync(path);
      return tryAcquire(path);
    }
    return false;
  }
}

export function release(path: string): void {
  unlinkSync(path);
}
