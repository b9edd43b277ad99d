// A lock directory whose stale break goes through a private method: the
// method's rmdir is no release of its own but the step each caller takes,
// so the takeovers are reported at the calls (after the liveness judgement,
// and the forced one on timeout), and nothing inside the method. One root
// bug per call, none twice. The holder's own release is reported as ever.
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

  private dropDir(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
