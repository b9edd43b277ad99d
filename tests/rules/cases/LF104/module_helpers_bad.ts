// The module's own load/save pair: one function loads the document through
// one helper and hands what it changed to the other, which replaces the file.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const REGISTRY = join("/var/lib/tool", "registry.json");

function loadRegistry(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(REGISTRY, "utf8"));
  } catch {
    return {};
  }
}

function storeRegistry(reg: Record<string, number>): void {
  const tmp = `${REGISTRY}.${process.pid}`;
  writeFileSync(tmp, JSON.stringify(reg));
  renameSync(tmp, REGISTRY);
}

export function register(name: string) {
  const reg = loadRegistry();
  reg[name] = Date.now();
  storeRegistry(reg);
}

export function touch(name: string) {
  const reg = loadRegistry();
  storeRegistry({ ...reg, [name]: Date.now() });
}
