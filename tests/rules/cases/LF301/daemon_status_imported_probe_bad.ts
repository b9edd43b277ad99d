// A daemon manager keeps the daemon's info file (written plainly once the
// daemon is spawned) and answers "is it running?" from it, with another
// module's liveness predicate. When the recorded pid is judged dead the status
// check removes the file by name and answers "not running": a daemon that
// has just started and written its own info file in between loses it, and
// the caller, told nothing runs, starts a second one.
import { existsSync } from "node:fs";
import { readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isAlive } from "../util/process.js";

interface DaemonInfo {
  pid: number;
  port: number;
}

export class Supervisor {
  constructor(private readonly stateDir: string) {}

  private infoPath(name: string): string {
    return join(this.stateDir, `${name}.daemon.json`);
  }

  async record(name: string, info: DaemonInfo): Promise<void> {
    await writeFile(this.infoPath(name), JSON.stringify(info));
  }

  async running(name: string): Promise<boolean> {
    const file = this.infoPath(name);
    if (!existsSync(file)) return false;
    try {
      const info = JSON.parse(await readFile(file, "utf8")) as DaemonInfo;
      if (isAlive(info.pid)) {
        return true;
      }
      await this.forget(name);
      return false;
    } catch {
      return false;
    }
  }

  private async forget(name: string): Promise<void> {
    try {
      await unlink(this.infoPath(name));
    } catch {
      // already gone
    }
  }
}
