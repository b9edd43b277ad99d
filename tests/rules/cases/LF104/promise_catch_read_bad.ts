// The read's promise carries its own fallback for a missing file
// (`.catch(() => "")`): what it resolves to is still the document read, and
// the store written back at line 12 is made from it, with no lock held.
import { promises as fsp } from "node:fs";

export async function revokeToken(path: string, id: string): Promise<void> {
  const raw = await fsp.readFile(path, "utf8").catch(() => "");
  if (!raw) return;
  const store = JSON.parse(raw) as Record<string, unknown>;
  if (!(id in store)) return;
  delete store[id];
  await fsp.writeFile(path, JSON.stringify(store, null, 2));
}
