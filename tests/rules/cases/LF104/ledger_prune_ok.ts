// Rewrites that lose no appended line: nothing in the module appends to the
// file, or only the rewriting function itself (one run's own addition), the
// data written is not made from what was read, or a lock is held.
import * as fs from "fs";
import lockfile from "proper-lockfile";

const LOG = "/var/lib/app/events.log";
const SOURCE = "/srv/app/src/index.ts";

export function log(line: string): void {
  fs.appendFileSync(LOG, line + "\n");
}

export function codemod(): void {
  const text = fs.readFileSync(SOURCE, "utf-8");
  fs.writeFileSync(SOURCE, text.replace(/foo/g, "bar"));
}

export function reset(): void {
  const text = fs.readFileSync(LOG, "utf-8");
  console.log(text.length);
  fs.writeFileSync(LOG, "");
}

export async function pruneLocked(max: number): Promise<void> {
  const release = await lockfile.lock(LOG);
  try {
    const lines = fs.readFileSync(LOG, "utf-8").split("\n");
    fs.writeFileSync(LOG, lines.slice(-max).join("\n"));
  } finally {
    await release();
  }
}

export function installAliases(rc: string): void {
  const text = fs.readFileSync(rc, "utf8");
  const cleaned = text.replace(/alias old=.*\n/g, "");
  fs.writeFileSync(rc, cleaned);
  fs.appendFileSync(rc, "alias new='tool'\n");
}
