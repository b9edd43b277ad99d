// A file cache: put() writes an entry with the value its caller hands in,
// without looking at the file first; get() deletes an entry whose own TTL has
// passed; add() creates an entry only when absent ("wx"). The entries are
// documents the module stores, not locks: add()'s exclusive create does not
// make every removal of a cache entry a lock's removal.
import * as fs from "node:fs";
import * as path from "node:path";

export class FileCache<V> {
  constructor(private readonly dir: string) {}

  private fileFor(key: string): string {
    return path.join(this.dir, encodeURIComponent(key) + ".json");
  }

  get(key: string): V | undefined {
    const file = this.fileFor(key);
    try {
      const entry = JSON.parse(fs.readFileSync(file, "utf8"));
      if (entry.expiresAt != null && entry.expiresAt <= Date.now()) {
        fs.unlinkSync(file);
        return undefined;
      }
      return entry.value;
    } catch {
      return undefined;
    }
  }

  put(key: string, value: V, seconds?: number): void {
    const expiresAt = seconds == null ? undefined : Date.now() + seconds * 1000;
    fs.writeFileSync(this.fileFor(key), JSON.stringify({ value, expiresAt }));
  }

  add(key: string, value: V): boolean {
    try {
      fs.writeFileSync(this.fileFor(key), JSON.stringify({ value }), { flag: "wx" });
      return true;
    } catch {
      return false;
    }
  }

  forget(key: string): void {
    fs.rmSync(this.fileFor(key), { force: true });
  }
}
