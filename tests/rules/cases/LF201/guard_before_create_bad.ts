// Confinement guards on a file that is about to be created: Node's realpath
// throws ENOENT for it, so the first write of every new file fails.
import { promises as fsp, realpathSync, writeFileSync } from "node:fs";
import * as path from "node:path";

export function saveState(dir: string, name: string, data: string): void {
  const file = path.join(dir, name);
  const real = realpathSync(file);
  if (!real.startsWith(realpathSync(dir) + path.sep)) throw new Error("escapes: " + name);
  writeFileSync(file, data);
}

// The catch turns the failure into a rejection of the path: still every new file.
export async function cachePath(root: string, key: string): Promise<string> {
  const candidate = path.join(root, key);
  let real: string;
  try {
    real = await fsp.realpath(candidate);
  } catch (err) {
    throw new Error("cannot resolve " + key + ": " + String(err));
  }
  if (path.relative(path.resolve(root), real).startsWith("..")) throw new Error("escapes: " + key);
  await fsp.writeFile(candidate, "");
  return candidate;
}

// Made in another directory first: this path is still missing.
export function underParent(dir: string, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(path.join(dir, "index.json"), "{}");
  if (realpathSync(file).indexOf(path.resolve(dir)) !== 0) throw new Error("escapes: " + name);
  return file;
}
