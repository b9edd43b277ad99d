// A "busy" marker named like a lock, written plainly when a sync starts and
// removed when it ends. Nothing in the module ever looks at it before
// removing it (a UI reads it elsewhere to show a spinner), so the module
// has no lock protocol here: no finding.
import { unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

export async function syncAll(stateDir: string, run: () => Promise<void>): Promise<void> {
  const lockMarker = join(stateDir, "sync.lock");
  await writeFile(lockMarker, String(process.pid));
  try {
    await run();
  } finally {
    await unlink(lockMarker).catch(() => undefined);
  }
}
