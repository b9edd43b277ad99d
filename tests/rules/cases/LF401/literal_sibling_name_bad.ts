// The temp is a literal name next to the target's own literal name, in the
// same directory: every writer of auth.json writes auth.json.tmp, so two
// writers truncate each other's temp and one rename publishes the other's
// half-written data (or fails on a temp already moved away).
import { rename, writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";

export async function saveAuth(data: object): Promise<void> {
  const dir = join(os.homedir(), ".codex");
  const authPath = join(dir, "auth.json");
  const tmpPath = join(dir, "auth.json.tmp");
  await writeFile(tmpPath, JSON.stringify(data));
  await rename(tmpPath, authPath);
}
