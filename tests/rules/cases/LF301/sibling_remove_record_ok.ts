// A sibling module's remover (read by its name) that drops records: the
// tombstone read, its owner probed and the file removed is a record of a
// release, not a lock, and a library's function of the same name (a bare
// specifier) is never read by its name.
import fs from "node:fs/promises";
import path from "node:path";
import { removeDurable } from "./durable-file.ts";
import { removeSync } from "some-lib";

function dead(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export async function reconcile(dir: string): Promise<void> {
  for (const name of await fs.readdir(dir)) {
    const file = path.join(dir, name);
    const rec = JSON.parse(await fs.readFile(file, "utf8")) as { pid: number };
    if (dead(rec.pid)) await removeDurable(file);
  }
}

export function drop(lockDir: string): void {
  removeSync(lockDir);
}
