// A class lock made with an exclusive create and retried; once the wait
// passes its bound, the waiter calls the class's own release helper, which
// removes the lock by name without judging anything itself. That call is the
// takeover (a slow, live holder loses its lock), and the holder's later
// release through the same helper deletes whoever took the lock after it.
import { promises as fs } from "node:fs";

const WAIT_BOUND_MS = 3000;

export class JournalStore {
  private readonly lockFile: string;

  constructor(private readonly journal: string) {
    this.lockFile = `${journal}.lck`;
  }

  async append(entry: string): Promise<void> {
    await this.lock();
    try {
      await fs.appendFile(this.journal, `${entry}\n`);
    } finally {
      await this.unlock();
    }
  }

  private async lock(): Promise<void> {
    const began = Date.now();
    for (;;) {
      try {
        await fs.writeFile(this.lockFile, String(process.pid), { flag: "wx" });
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        if (Date.now() - began > WAIT_BOUND_MS) {
          await this.unlock();
          continue;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    }
  }

  private async unlock(): Promise<void> {
    await fs.rm(this.lockFile, { force: true });
  }
}
