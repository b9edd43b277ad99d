// A generic delete helper handed several paths: each lock's removal is
// reported at the call that removes it, not once inside the helper.
import { promises as fs } from "node:fs";

async function removeIfPresent(file: string): Promise<void> {
  try {
    await fs.unlink(file);
  } catch (e: any) {
    if (e.code !== "ENOENT") throw e;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e.code === "EPERM";
  }
}

export class BuildLock {
  constructor(private readonly ownerFile: string, private readonly scratch: string) {}

  async currentOwner(): Promise<number | undefined> {
    const text = await fs.readFile(this.ownerFile, "utf8").catch(() => "");
    const pid = parseInt(text, 10);
    if (!pid) return undefined;
    if (!alive(pid)) {
      await removeIfPresent(this.ownerFile);
      return undefined;
    }
    return pid;
  }

  async release(): Promise<void> {
    await removeIfPresent(this.ownerFile);
    await removeIfPresent(this.scratch);
  }
}
