// An atomic write through a temp named for this process and this call
// (pid and a random UUID), created with "wx" and removed when the write
// fails: no other process ever opens that name, so it excludes no one and is
// no lock, whatever the removal looked at first.
import { randomUUID } from "node:crypto";
import { closeSync, existsSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export function writeAtomic(path: string, content: string): void {
  const temp = join(dirname(path), `${basename(path)}.tmp.${process.pid}.${randomUUID()}`);
  let fd: number | null = null;
  try {
    fd = openSync(temp, "wx", 0o600);
    writeSync(fd, content);
    closeSync(fd);
    fd = null;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    if (existsSync(temp)) unlinkSync(temp);
    throw error;
  }
}
