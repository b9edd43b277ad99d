// Helpers of another module that name their document themselves: the stem
// of the load/save pair is the document.
import { loadIndex, saveIndex } from "./session-index";
const lib = require("./lib/state");

export function endSession(id: string, now: string): void {
  const index = loadIndex();
  index.sessions[id].endedAt = now;
  saveIndex(index);
}

export function touch(projectDir: string, slug: string, path: string): void {
  const meta = lib.loadMeta(projectDir, slug);
  meta.recent.push(path);
  lib.saveMeta(projectDir, slug, meta);
}

// The read of case "read" does not reach the write of case "write" (a
// return ends it): only the write case's own read-modify-write is one.
export function dispatch(op: string, id: string): void {
  switch (op) {
    case "read": {
      const index = loadIndex();
      console.log(index.sessions[id]);
      return;
    }
    case "write": {
      const index = loadIndex();
      index.sessions[id] = 1;
      saveIndex(index);
      return;
    }
  }
}

// What is written back is part of what a call given the read returns.
import { loadState, saveState } from "./filesystem.js";
declare function processSession(input: string, state: object): Promise<{ turns: number; updatedState: object }>;
export async function onStop(input: string): Promise<void> {
  const state = loadState();
  try {
    const { turns, updatedState } = await processSession(input, state);
    console.log(turns);
    saveState(updatedState);
  } catch (e) {
    console.log(e);
  }
}
