// The same lock directory, its break through a public method: code in other
// modules may call dropDir() too (with no judgement of its own), so the
// removal inside it stays reported there, besides the takeovers at the calls
// and the holder's own release.
import * as fs from "fs";
import * as path from "path";

export class DirLock {
  private dir: string;

  constructor(target: string) {
    this.dir = target + ".lock";
  }

  acquire(): void {
    for (let i = 0; i < 100; i++) {
      try {
        fs.mkdirSync(this.dir);
        fs.writeFileSync(path.join(this.dir, "owner"), String(process.pid));
        return;
      } catch (err: any) {
        if (err.code !== "EEXIST") throw err;
        if (this.holderGone()) {
          this.dropDir();
          continue;
        }
      }
    }
    this.dropDir();
    fs.mkdirSync(this.dir);
  }

  release(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private holderGone(): boolean {
    try {
      const pid = Number(fs.readFileSync(path.join(this.dir, "owner"), "utf8"));
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }

  dropDir(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
