// Session records, written plainly (temp + rename) by each session and swept
// when their process is gone. The liveness verdict comes from another
// module's predicate: it judges locks the module has, and it has none. No
// record keeps anyone out, so removing one by name deletes no lock.
import { readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isPidAlive } from "../utils/pid.js";

const DIR = "/tmp/tool/sessions";

export function saveSession(id: string, pid: number): void {
  const path = join(DIR, `${id}.json`);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ id, pid }));
  renameSync(tmp, path);
}

export function sweepSessions(): number {
  let removed = 0;
  for (const file of readdirSync(DIR)) {
    if (!file.endsWith(".json")) continue;
    const path = join(DIR, file);
    const session = JSON.parse(readFileSync(path, "utf8")) as { pid: number };
    if (!isPidAlive(session.pid)) {
      unlinkSync(path);
      removed++;
    }
  }
  return removed;
}
