// State helpers that name the file from their arguments: the counter is read
// through one and written back through another, with the same arguments.
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'fs';
import { join } from 'path';
import { tmpdir } from 'os';

const ROOT = join(tmpdir(), '.hook-state');

export function stateDir(session) {
  const dir = join(ROOT, session);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function readState(dir, key) {
  const file = join(dir, key);
  if (!existsSync(file)) return null;
  return readFileSync(file, 'utf8');
}

export function writeState(dir, key, value) {
  writeFileSync(join(dir, key), value);
}

export function readJson(dir, key) {
  const raw = readState(dir, key);
  return raw === null ? null : JSON.parse(raw);
}

export function writeJson(dir, key, value) {
  writeState(dir, key, JSON.stringify(value));
}

export function bump(dir, key) {
  const current = parseInt(readState(dir, key) || '0', 10) || 0;
  const next = current + 1;
  writeState(dir, key, String(next));
  return next;
}

export function remember(dir, tool) {
  const seen = readJson(dir, 'seen.json') || {};
  seen[tool] = (seen[tool] || 0) + 1;
  writeJson(dir, 'seen.json', seen);
}
