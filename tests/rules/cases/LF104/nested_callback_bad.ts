// The write sits in a callback nested in the read's own body: it runs after
// the read, on what was read.
import { readFileSync, writeFileSync } from "node:fs";

export function bumpAll(file: string, ids: string[]) {
  const counts = JSON.parse(readFileSync(file, "utf8"));
  ids.forEach((id) => {
    counts[id] = (counts[id] || 0) + 1;
    writeFileSync(file, JSON.stringify(counts));
  });
}
