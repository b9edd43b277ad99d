// Look-alikes of the load/save pair that lose nothing.
import { readFileSync, writeFileSync } from "node:fs";

const STATE = "/var/lib/tool/state.json";
const REPORT = "/var/lib/tool/report.json";

function loadState(): { seen: string[] } {
  return JSON.parse(readFileSync(STATE, "utf8"));
}

function loadRaw(): string {
  return readFileSync(STATE, "utf8");
}

function writeRaw(text: string): void {
  writeFileSync(STATE, text);
}

function writeReport(value: unknown): void {
  writeFileSync(REPORT, JSON.stringify(value));
}

// The saver re-reads the file and merges into it: its own read-modify-write,
// reported at its read (line 26), not again at each caller.
function saveState(state: { seen: string[] }): void {
  const disk = JSON.parse(readFileSync(STATE, "utf8"));
  const seen = Array.from(new Set([...disk.seen, ...state.seen]));
  writeFileSync(STATE, JSON.stringify({ seen }));
}

export function markSeen(key: string) {
  const state = loadState();
  state.seen.push(key);
  saveState(state);
}

// Written somewhere else: a report, not the document read.
export function summarize() {
  const state = loadState();
  writeReport({ count: state.seen.length });
}

// Copied as text, never parsed: a backup copy, no document changed.
export function restore() {
  const text = loadRaw();
  writeRaw(text);
}

// Read in one closure, written in another: two separate bodies.
export const store = {
  get: () => loadState(),
  put: (s: { seen: string[] }) => writeFileSync(STATE, JSON.stringify(s)),
};
