// proper-lockfile keeps the lock of `lock(file)` as the directory
// `${file}.lock`, and takes, refreshes, breaks (when stale) and releases it
// itself. This module releases through the library and then, "to be safe",
// removes that directory by name: by then it may be another process's live
// lock, which this deletes.
import { promises as fsp } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { lock } from "proper-lockfile";

const SETTINGS = join(homedir(), ".viewer-settings.json");
const SETTINGS_LOCK = `${SETTINGS}.lock`;

export async function updateSettings(change: (s: Record<string, unknown>) => void): Promise<void> {
  const release = await lock(SETTINGS, { retries: 5 });
  try {
    const settings = JSON.parse(await fsp.readFile(SETTINGS, "utf8"));
    change(settings);
    await fsp.writeFile(SETTINGS, JSON.stringify(settings));
  } finally {
    await release();
    await fsp.rmdir(SETTINGS_LOCK).catch(() => undefined);
  }
}
