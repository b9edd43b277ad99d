// Not one update: stems or modules differ, another document's arguments, a
// sibling callbacks, nothing
// done with what was read, or a lock held around both.
import { loadIndex, saveIndex, loadState, saveCache } from "./session-index";
import { saveIndex as saveOtherIndex } from "./other-index";
import { loadMeta, saveMeta } from "./meta";
import { withLock } from "./locks";

export function crossStems(k: string): void {
  const state = loadState();
  state[k] = 1;
  saveCache(state);
}

export function crossModules(id: string): void {
  const index = loadIndex();
  index.sessions[id] = 1;
  saveOtherIndex(index);
}

export function otherDocument(a: string, b: string): void {
  const meta = loadMeta(a);
  meta.n = 1;
  saveMeta(b, meta);
}

export function copyThrough(): void {
  const index = loadIndex();
  saveIndex(index);
}

export function siblings(it: (name: string, fn: () => void) => void): void {
  let index: any;
  it("reads", () => {
    index = loadIndex();
  });
  it("writes", () => {
    index.n = 1;
    saveIndex(index);
  });
}

export async function locked(id: string): Promise<void> {
  await withLock("index", async () => {
    const index = loadIndex();
    index.sessions[id] = 1;
    saveIndex(index);
  });
}

// Configuration a setup command writes: not state kept by processes running
// side by side.
import { loadConfig, saveConfig } from "./setup-lib";
export async function setup(configPath: string, mode: string): Promise<void> {
  const cfg = await loadConfig(configPath);
  cfg.mode = mode;
  await saveConfig(configPath, cfg);
}

// An install's manifest: the one command that installs writes it.
import { readModulesManifest, writeModulesManifest } from "@pnpm/modules-yaml";
export async function revoke(dir: string, ignored: string[]): Promise<void> {
  const manifest = await readModulesManifest(dir);
  manifest.ignoredBuilds = ignored;
  await writeModulesManifest(dir, manifest);
}
