// A home-made lock that nothing creates exclusively: acquire() checks that
// the lock file is absent and then writes it (two waiters can both get
// through), breaks it by name once the time written in it is 30 s old, and
// release() removes it by name. The module's own protocol makes the file a
// lock (it writes it, judges it, removes it, and calls it one), so its
// judged removal, its age and its release by name are each reported.
import fs from "node:fs/promises";

const STALE_MS = 30_000;

export class FileLock {
  private readonly lockPath: string;
  private held = false;

  constructor(file: string) {
    this.lockPath = `${file}.lock`;
  }

  private async exists(p: string): Promise<boolean> {
    try {
      await fs.access(p);
      return true;
    } catch {
      return false;
    }
  }

  async acquire(timeoutMs = 5000): Promise<boolean> {
    const start = Date.now();
    while (Date.now() - start < timeoutMs) {
      if (await this.exists(this.lockPath)) {
        const written = Number.parseInt(await fs.readFile(this.lockPath, "utf8"), 10);
        if (Date.now() - written > STALE_MS) {
          await fs.unlink(this.lockPath).catch(() => undefined);
        }
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      await fs.writeFile(this.lockPath, String(Date.now()));
      this.held = true;
      return true;
    }
    return false;
  }

  async release(): Promise<void> {
    if (!this.held) return;
    await fs.unlink(this.lockPath).catch(() => undefined);
    this.held = false;
  }
}
