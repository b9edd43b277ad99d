// An append done by rewriting: the memory file's text is read whole and
// written back with the new entry after it; a reindex lock taken afterwards
// covers none of it.
import { readFileSync, writeFileSync, existsSync, openSync, closeSync, unlinkSync, constants } from 'node:fs';
import { join } from 'node:path';

const MEMORY_DIR = join(process.env.HOME ?? '.', '.memory');
const LOCK_PATH = join(MEMORY_DIR, 'reindex.lock');

function acquireReindexLock(): boolean {
  try {
    closeSync(openSync(LOCK_PATH, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY));
    return true;
  } catch {
    return false;
  }
}

export function memoryAppend(file: string, entry: string): void {
  const fullPath = join(MEMORY_DIR, file);
  if (existsSync(fullPath)) {
    const existing = readFileSync(fullPath, 'utf-8');
    const separator = existing.endsWith('\n') ? '' : '\n';
    writeFileSync(fullPath, existing + separator + entry, 'utf-8');
  } else {
    writeFileSync(fullPath, entry, 'utf-8');
  }
  if (acquireReindexLock()) {
    unlinkSync(LOCK_PATH);
  }
}

export function journal(file: string, line: string): void {
  const p = join(MEMORY_DIR, file);
  const before = readFileSync(p, 'utf8');
  writeFileSync(p, `${before}${line}\n`);
}
