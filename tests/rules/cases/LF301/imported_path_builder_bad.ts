// The pid file's path comes from a builder of another module of the project
// (`pidPathFor(projectDir)`), called afresh in each function: one file per
// builder, whichever function asks. The status check reads the pid through
// one helper, judges it dead and removes the file through another, by name
// (line 25, the takeover's own step, called at line 41): a daemon that started
// in between has its fresh pid file deleted, and the next start launches a
// second one.
import { readFile, unlink, writeFile } from "node:fs/promises";
import { pidPathFor } from "../paths.ts";

export async function claimPidFile(projectDir: string): Promise<void> {
  await writeFile(pidPathFor(projectDir), String(process.pid), { flag: "wx" });
}

async function readPid(projectDir: string): Promise<number | null> {
  try {
    const pid = parseInt((await readFile(pidPathFor(projectDir), "utf8")).trim(), 10);
    return Number.isNaN(pid) ? null : pid;
  } catch {
    return null;
  }
}

async function dropPidFile(projectDir: string): Promise<void> {
  await unlink(pidPathFor(projectDir)).catch(() => undefined);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function daemonRunning(projectDir: string): Promise<boolean> {
  const pid = await readPid(projectDir);
  if (pid === null) return false;
  if (!alive(pid)) {
    await dropPidFile(projectDir);
    return false;
  }
  return true;
}
