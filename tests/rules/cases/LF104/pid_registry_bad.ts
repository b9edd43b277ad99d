// A registry of processes: each entry holds a pid, but the document written
// back is the one read, with this process's entry added.
import { readFile, writeFile } from "node:fs/promises";

export async function register(file: string, name: string): Promise<void> {
  const registry = JSON.parse(await readFile(file, "utf-8"));
  registry[name] = { pid: process.pid, started: Date.now() };
  await writeFile(file, JSON.stringify(registry));
}
