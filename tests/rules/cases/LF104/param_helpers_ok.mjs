// The same helpers, where nothing read goes back into the same file.
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

export function readState(dir, key) {
  return readFileSync(join(dir, key), 'utf8');
}

export function writeState(dir, key, value) {
  writeFileSync(join(dir, key), value);
}

export function archive(dir, key) {
  const current = parseInt(readState(dir, key) || '0', 10);
  writeState(dir, key + '.bak', String(current)); // another file
}

export function reset(dir, key) {
  const current = parseInt(readState(dir, key) || '0', 10);
  writeState(dir, key, '0'); // nothing of what was read is written back
  return current;
}

export function copyRaw(dir, key) {
  const text = readState(dir, key); // raw text, never parsed: a copy, no document
  writeState(dir, 'copy', text);
}
