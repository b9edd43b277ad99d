// A daemon's record module: records holding a pid are read from files, and the
// verdict on a record's pid leaves the module (start launches a duplicate
// daemon when EPERM reads as dead).
import { readFile, writeFile } from "node:fs/promises";

export type DaemonRecord = { pid: number; script: string };

export async function readRecord(file: string): Promise<DaemonRecord | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as DaemonRecord;
  } catch {
    return null;
  }
}

export async function writeRecord(file: string, record: DaemonRecord): Promise<void> {
  await writeFile(file, JSON.stringify(record));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function isRunning(record: DaemonRecord | null): boolean {
  return record !== null && isAlive(record.pid);
}
