// The JSON-lines ledger's name is spelled in the function that returns its
// path; the prune that rewrites it gets the path as a parameter, from a caller
// that got it from that function.
import fs from 'node:fs';
import path from 'node:path';

export function ledgerPath(stateDir: string): string {
  return path.join(stateDir, 'state', 'audit.jsonl');
}

function pruneStale(file: string, cutoff: number): void {
  const kept = fs
    .readFileSync(file, 'utf-8')
    .split('\n')
    .filter((line) => line.trim() && new Date(JSON.parse(line).ts).getTime() >= cutoff);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, kept.join('\n') + '\n');
  fs.renameSync(tmp, file);
}

export function audit(stateDir: string, row: object): void {
  const file = ledgerPath(stateDir);
  pruneStale(file, Date.now() - 30 * 86_400_000);
  fs.appendFileSync(file, JSON.stringify(row) + '\n');
}
