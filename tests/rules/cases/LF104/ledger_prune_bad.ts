// A ledger every run appends to, pruned or trimmed in place: a line appended
// between the read and the write is lost.
import * as fs from "fs";

const LEDGER = "/var/lib/app/ledger.jsonl";

export function record(row: object): void {
  fs.appendFileSync(LEDGER, JSON.stringify(row) + "\n");
}

export function prune(cutoff: number): void {
  const kept = fs
    .readFileSync(LEDGER, "utf-8")
    .split("\n")
    .filter((line) => line && JSON.parse(line).ts >= cutoff);
  const tmp = `${LEDGER}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, kept.join("\n") + "\n");
  fs.renameSync(tmp, LEDGER);
}

export class History {
  constructor(private file: string) {}
  add(line: string): void {
    fs.appendFileSync(this.file, line + "\n");
  }
  trim(max: number): void {
    const content = fs.readFileSync(this.file, "utf-8");
    const lines = content.split("\n").filter((l) => l.length > 0);
    const keep: string[] = [];
    for (const l of lines.slice(-max)) keep.push(l);
    fs.writeFileSync(this.file, keep.join("\n") + "\n");
  }
}
