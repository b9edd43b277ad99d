// A session log flushed with `wx` on its first write, then appended to.
import { appendFile, writeFile } from "node:fs/promises";

export class SessionLog {
  private first = true;

  constructor(private readonly file: string) {}

  async push(entry: unknown): Promise<void> {
    const line = JSON.stringify(entry) + "\n";
    if (this.first) {
      this.first = false;
      await writeFile(this.file, line, { flag: "wx" });
      return;
    }
    await appendFile(this.file, line);
  }
}
