// The same shape made safe: the hidden sibling also carries the writer's pid
// and a random part, so no two writers share it; and a backup copy named
// after the target that is renamed onto another file is not an atomic write
// of the target.
import { renameSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";

export class UniqueSaver {
  #target;
  constructor(target) {
    this.#target = target;
  }
  save(text) {
    const p = String(this.#target);
    const scratch = path.join(path.dirname(p), `.${path.basename(p)}.${process.pid}.${randomUUID()}.tmp`);
    writeFileSync(scratch, text);
    renameSync(scratch, this.#target);
  }
}

export function archive(target, archiveDir) {
  const p = String(target);
  const staged = path.join(path.dirname(p), `.${path.basename(p)}.tmp`);
  renameSync(staged, path.join(archiveDir, path.basename(p)));
}
