// The daemon's lock class reads its lock record (readFile, then JSON.parse
// through a name), probes the recorded pid, and takes a dead holder's lock
// over through its own release() (line 29): two starters that both judged
// the same dead holder race, and the slower one's release deletes the lock
// the faster one has just written. The release by name itself (line 37)
// then deletes a successor's lock too.
import { promises as fs } from "node:fs";

interface LockInfo {
  pid: number;
  startedAt: number;
}

export class DaemonLock {
  constructor(private readonly lockfilePath: string) {}

  async acquire(): Promise<void> {
    let exists = false;
    try {
      await fs.stat(this.lockfilePath);
      exists = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    if (exists) {
      const content = await fs.readFile(this.lockfilePath, "utf-8");
      const info: LockInfo = JSON.parse(content);
      if (this.running(info.pid)) throw new Error(`already running: ${info.pid}`);
      await this.release();
    }
    const mine: LockInfo = { pid: process.pid, startedAt: Date.now() };
    await fs.writeFile(this.lockfilePath, JSON.stringify(mine), "utf-8");
  }

  async release(): Promise<void> {
    try {
      await fs.unlink(this.lockfilePath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }

  private running(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === "EPERM";
    }
  }
}
