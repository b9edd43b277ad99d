// A lock held by another function of the module does not cover this write:
// two processes calling save() share the temp name.
import { promises as fs } from "node:fs";
import { withFileLock } from "./file-lock";

export async function compact(file: string): Promise<void> {
  await withFileLock(file, async () => {
    await fs.truncate(file);
  });
}

export async function save(file: string, data: unknown): Promise<void> {
  const tmp = file + ".tmp";
  await fs.writeFile(tmp, JSON.stringify(data));
  await fs.rename(tmp, file);
}
