// Confinement checks whose realpath cannot meet a missing path unhandled:
// the path was just made or found, or the failure is caught and handled.
import { promises as fsp, mkdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";

// Fails closed: a missing path is "not within", never a crash.
export function isWithinDir(target: string, dir: string): boolean {
  let realDir: string;
  let realTarget: string;
  try {
    realDir = realpathSync(dir);
    realTarget = realpathSync(target);
  } catch {
    return false;
  }
  const rel = path.relative(realDir, realTarget);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

// The directory is created just before it is resolved.
export async function extractDir(root: string, entry: string): Promise<string> {
  const resolvedRoot = path.resolve(root);
  const destDir = path.dirname(path.join(resolvedRoot, entry));
  await fsp.mkdir(destDir, { recursive: true });
  const canonical = await fsp.realpath(destDir);
  if (path.relative(resolvedRoot, canonical).split(path.sep).includes("..")) {
    throw new Error("entry escapes the target: " + entry);
  }
  return canonical;
}

// Files being read: a missing one is skipped.
export function readable(root: string, names: string[]): string[] {
  const realRoot = realpathSync(root);
  const out: string[] = [];
  for (const name of names) {
    let real: string;
    try {
      real = realpathSync(path.resolve(root, name));
    } catch {
      continue;
    }
    if (real.startsWith(realRoot + path.sep)) out.push(real);
  }
  return out;
}

// Found on disk by stat (which throws when it is missing), then resolved.
export function existing(dir: string, name: string): string {
  const file = path.join(dir, name);
  statSync(file);
  if (!realpathSync(file).startsWith(realpathSync(dir))) throw new Error("escapes: " + name);
  return file;
}

// Written first, then checked.
export function written(dir: string, name: string, data: string): void {
  const file = path.join(dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, data);
  if (!realpathSync(file).startsWith(path.resolve(dir))) throw new Error("escapes: " + name);
}

// A promise chain that handles the rejection.
export async function resolvedOrNull(dir: string, name: string): Promise<string | null> {
  const real = await fsp.realpath(path.join(dir, name)).catch(() => null);
  if (real === null) return null;
  return real.startsWith(await fsp.realpath(dir)) ? real : null;
}
