// The registry is written through the project's own atomic writer, exported
// by a sibling module (`writeJsonAtomic` from "../helpers/fs"): read by its
// name, its first argument is the file it writes. Each update reads the whole
// registry through readRegistry(), changes it and writes it back with no lock
// (lines 24 and 30): concurrent workers lose each other's entries.
import { readFile } from "node:fs/promises";
import { writeJsonAtomic } from "../helpers/fs";

type Registry = { entries: { pid: number; url: string }[] };

async function readRegistry(path: string): Promise<Registry> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as Registry;
  } catch {
    return { entries: [] };
  }
}

async function writeRegistry(path: string, reg: Registry): Promise<void> {
  await writeJsonAtomic(path, reg);
}

export async function addWorker(path: string, pid: number, url: string): Promise<void> {
  const reg = await readRegistry(path);
  reg.entries.push({ pid, url });
  await writeRegistry(path, reg);
}

export async function removeWorker(path: string, pid: number): Promise<void> {
  const reg = await readRegistry(path);
  await writeRegistry(path, { entries: reg.entries.filter((e) => e.pid !== pid) });
}
