// Product code that imports an assertion module for its own invariants and
// registers no tests: not test code, and its lost update is reported.
import assert from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";

export function recordRun(file: string, id: string): void {
  assert(id.length > 0, "run id");
  const runs = JSON.parse(readFileSync(file, "utf8"));
  runs[id] = Date.now();
  writeFileSync(file, JSON.stringify(runs));
}
