// A pid lock taken with a `wx` write whose failure reaches the caller (no
// catch: a second starter throws), released by a closure over the path. The
// takeover calls that closure after judging the recorded pid dead; the
// closure is also the holder's release (returned, and run on exit). Its
// removal by name is the root bug, reported inside it, naming the takeover.
import { promises as fs } from "node:fs";

async function holderAlive(pidPath: string): Promise<boolean> {
  let pid: number;
  try {
    pid = Number.parseInt(await fs.readFile(pidPath, "utf8"), 10);
  } catch {
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function takePidLock(pidPath: string): Promise<() => Promise<void>> {
  async function release(): Promise<void> {
    await fs.unlink(pidPath).catch(() => undefined);
  }
  if (await holderAlive(pidPath)) {
    throw new Error(`${pidPath} is held`);
  }
  await release();
  process.once("exit", () => void release());
  await fs.writeFile(pidPath, String(process.pid), { flag: "wx" });
  return release;
}
