// Not every call holds a lock: bumpBoots() is also called by reset(), which
// takes none; and record() runs after readLock(), which only reads a lock
// record (its name is no lock taken). Both read-modify-writes are reported.
import * as fs from "node:fs";

const LOCK = "/var/tmp/app/lifecycle.lock";

function takeLifecycleLock(): void {
  try {
    fs.writeFileSync(LOCK, String(process.pid), { flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") process.exit(1);
    throw e;
  }
  process.on("exit", () => fs.unlinkSync(LOCK));
}

function readLock(dir: string): string | null {
  try {
    return fs.readFileSync(`${dir}/owner.lock`, "utf8");
  } catch {
    return null;
  }
}

function bumpBoots(file: string): void {
  const state = JSON.parse(fs.readFileSync(file, "utf8"));
  state.boots = (state.boots ?? 0) + 1;
  fs.writeFileSync(file, JSON.stringify(state));
}

function record(file: string, entry: string): void {
  const doc = JSON.parse(fs.readFileSync(file, "utf8"));
  doc.entries.push(entry);
  fs.writeFileSync(file, JSON.stringify(doc));
}

export function main(stateFile: string): void {
  takeLifecycleLock();
  bumpBoots(stateFile);
}

export function reset(stateFile: string): void {
  bumpBoots(stateFile);
}

export function log(dir: string, file: string, entry: string): void {
  if (readLock(dir) !== null) record(file, entry);
}
