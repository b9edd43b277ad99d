// The caller reads the state for itself and later calls a writer that reads
// the file again and writes back what it read then: what the writer writes
// does not come from the caller's read, and the writer's own update holds a
// lock.
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { withLock } from "./lock";

interface State {
  iteration: number;
  log: string[];
}

async function readState(dir: string): Promise<State> {
  return JSON.parse(await readFile(path.join(dir, "state.json"), "utf8")) as State;
}

async function advance(dir: string, note: string): Promise<void> {
  await withLock(dir, async () => {
    const state = await readState(dir);
    state.iteration += 1;
    state.log.push(note);
    await writeFile(path.join(dir, "state.json"), JSON.stringify(state));
  });
}

export async function iterate(dir: string): Promise<number> {
  const state = await readState(dir);
  const note = `iteration ${state.iteration}`;
  await advance(dir, note);
  return state.iteration + 1;
}
