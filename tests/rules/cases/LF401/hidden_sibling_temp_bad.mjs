// A settings saver that writes next to the target under a hidden name made
// from the target's own name, then renames it over the target. Every process
// (and every saver object) writing the same file uses the same temp, so two
// concurrent saves interleave in it and one publishes the other's half.
import { renameSync, writeFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

function siblingOf(target) {
  const p = target instanceof URL ? fileURLToPath(target) : target.toString();
  return path.join(path.dirname(p), `.${path.basename(p)}.tmp`);
}

export class SettingsSaver {
  #target;
  #scratch;
  constructor(target) {
    this.#target = target;
    this.#scratch = siblingOf(target);
  }
  async save(text) {
    await writeFile(this.#scratch, text, "utf8");
    await rename(this.#scratch, this.#target);
  }
}

export class SyncSaver {
  #target;
  #scratch;
  constructor(target) {
    this.#target = target;
    const p = String(target);
    this.#scratch = path.join(path.dirname(p), `.${path.basename(p)}.tmp`);
  }
  save(text) {
    writeFileSync(this.#scratch, text);
    renameSync(this.#scratch, this.#target);
  }
}
