// Start-up steps that read and rewrite shared files run only after the
// process took its lock: main() takes it first (a helper that creates the
// lock exclusively and keeps it until exit), and flush() is only ever called
// inside a withFileLock callback. Every call of each step holds the lock.
import * as fs from "node:fs";
import { withFileLock } from "./file-lock";

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

function bumpBoots(file: string): void {
  const state = JSON.parse(fs.readFileSync(file, "utf8"));
  state.boots = (state.boots ?? 0) + 1;
  fs.writeFileSync(file, JSON.stringify(state));
}

function flush(file: string, lines: string[]): void {
  const doc = JSON.parse(fs.readFileSync(file, "utf8"));
  doc.lines = [...doc.lines, ...lines];
  fs.writeFileSync(file, JSON.stringify(doc));
}

export async function append(file: string, lines: string[]): Promise<void> {
  await withFileLock(`${file}.lock`, async () => flush(file, lines));
}

export function main(stateFile: string): void {
  takeLifecycleLock();
  bumpBoots(stateFile);
}
