// Every write through the shared temp name runs under the module's lock (a
// callback of withFileLock, or after acquireLock): the writers take turns.
import { promises as fs } from "node:fs";
import { acquireLock, withFileLock } from "./file-lock";

export async function compact(file: string, lines: string[]): Promise<void> {
  await withFileLock(file, async () => {
    const tempFile = `${file}.tmp`;
    await fs.writeFile(tempFile, lines.join("\n") + "\n", "utf8");
    await fs.rename(tempFile, file);
  });
}

export async function save(file: string, data: unknown): Promise<void> {
  const release = await acquireLock(file);
  try {
    const tmp = file + ".tmp";
    await fs.writeFile(tmp, JSON.stringify(data));
    await fs.rename(tmp, file);
  } finally {
    await release();
  }
}
