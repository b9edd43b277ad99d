// Temp names fixed by the target with any affix, renamed onto that target.
import { renameSync, writeFileSync, copyFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";

export function saveNew(final, text) {
  const next = final + ".new";
  writeFileSync(next, text);
  renameSync(next, final);
}

export async function savePart(final, text) {
  const part = `${final}.part`;
  await writeFile(part, text);
  await rename(part, final);
}

export function saveTilde(final, text) {
  writeFileSync(`${final}~`, text);
  renameSync(`${final}~`, final);
}

export function saveHidden(file, text) {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.swp`);
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export function backupRestore(file, text) {
  // a backup put back: not a temp
  const bak = file + ".bak";
  copyFileSync(file, bak);
  try {
    writeFileSync(file, text);
  } catch (err) {
    renameSync(bak, file);
    throw err;
  }
}

export function renameElsewhere(file, text) {
  const next = file + ".new";
  writeFileSync(next, text);
  renameSync(next, file + ".json");
}

export function uniquePid(file, text) {
  const tmp = `${file}.${process.pid}.new`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}
