// fs reached through an object the module exports as a seam for its tests:
// `_internals.readFileSync` is fs.readFileSync (bound), so the prune below is
// a read-modify-write of the ledger the module appends to.
import * as fs from 'node:fs';

export const _internals = {
  appendFileSync: fs.appendFileSync.bind(fs),
  readFileSync: fs.readFileSync.bind(fs),
  writeFileSync: fs.writeFileSync.bind(fs),
  renameSync: fs.renameSync.bind(fs),
};

const LOG_PATH = '/tmp/usage.jsonl';

export function record(entry: object): void {
  _internals.appendFileSync(LOG_PATH, JSON.stringify(entry) + '\n');
}

export function prune(keep: number): void {
  const logPath = LOG_PATH;
  const raw = _internals.readFileSync(logPath, 'utf-8');
  const kept = raw.split('\n').filter(Boolean).slice(-keep);
  const tmp = `${logPath}.${process.pid}.tmp`;
  _internals.writeFileSync(tmp, kept.join('\n') + '\n');
  _internals.renameSync(tmp, logPath);
}
