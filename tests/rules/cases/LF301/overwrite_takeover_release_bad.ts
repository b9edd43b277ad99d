// A lock taken over by rewriting it in place once its mtime is old enough
// (the refresh keeps a live holder's mtime young). The release removes the
// lock by name: a holder paused past the limit deletes its successor's lock.
// The path reaches the stat through a conversion imported from another
// package (`toPath`), which names the file it is given.
import { rmSync, statSync, writeFileSync } from "node:fs";
import { toPath } from "path-kit";

function lockAge(lockPath: string): number {
  return Date.now() - statSync(toPath(lockPath)).mtimeMs;
}

export class Mutex {
  #path: string;
  #held = false;

  constructor(path: string) {
    this.#path = path;
  }

  lock(): boolean {
    try {
      writeFileSync(this.#path, "", { flag: "wx" });
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") throw e;
      if (lockAge(this.#path) < 30000) return false;
      writeFileSync(this.#path, "", { flag: "w" });
    }
    this.#held = true;
    return true;
  }

  unlock(): void {
    if (!this.#held) return;
    rmSync(this.#path);
    this.#held = false;
  }
}
