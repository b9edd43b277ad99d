// A document under a directory this process made with mkdtemp: no other
// process knows the directory, so no other writer can lose an update.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let root: string;
let stateFile: string;

export function setUp() {
  root = mkdtempSync(join(tmpdir(), "app-test-"));
  stateFile = join(root, "state.json");
}

export function bumpPrivate(id: string) {
  const state = JSON.parse(readFileSync(stateFile, "utf8"));
  state[id] = (state[id] || 0) + 1;
  writeFileSync(stateFile, JSON.stringify(state));
}

export function bumpScratch(id: string) {
  const dir = mkdtempSync(join(tmpdir(), "scratch-"));
  const file = `${dir}/counts.json`;
  writeFileSync(file, "{}");
  const counts = JSON.parse(readFileSync(file, "utf8"));
  counts[id] = 1;
  writeFileSync(file, JSON.stringify(counts));
}
