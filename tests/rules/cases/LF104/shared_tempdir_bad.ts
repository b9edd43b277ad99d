// os.tmpdir() is shared by every process, and a name bound to a private
// directory on one path and a shared one on another is shared.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function bumpShared(id: string) {
  const file = join(tmpdir(), "app", "counts.json");
  const counts = JSON.parse(readFileSync(file, "utf8"));
  counts[id] = (counts[id] || 0) + 1;
  writeFileSync(file, JSON.stringify(counts));
}

let dir = mkdtempSync(join(tmpdir(), "app-"));
export function useShared() {
  dir = join(tmpdir(), "app-shared");
}

export function bumpMaybeShared(id: string) {
  const file = join(dir, "counts.json");
  const counts = JSON.parse(readFileSync(file, "utf8"));
  counts[id] = 1;
  writeFileSync(file, JSON.stringify(counts));
}
