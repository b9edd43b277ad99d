// The same log with a single-writer lock taken before the first write and
// held while the log is appended to.
import { appendFile, writeFile } from "node:fs/promises";

interface WriterLock {
  acquire(): Promise<void>;
}

export class SessionLog {
  private first = true;

  constructor(private readonly file: string, private readonly lock: WriterLock) {}

  async push(entry: unknown): Promise<void> {
    await this.lock.acquire();
    const line = JSON.stringify(entry) + "\n";
    if (this.first) {
      this.first = false;
      await writeFile(this.file, line, { flag: "wx" });
      return;
    }
    await appendFile(this.file, line);
  }
}
