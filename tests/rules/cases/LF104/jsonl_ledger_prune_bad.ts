// A prune script: it reads a JSON-lines ledger (the hooks of every session
// append one line per event to it, from other modules), keeps the fresh
// lines and renames the kept copy over it, with no lock. A line appended
// between the read and the rename is lost. The read's result is kept in a
// name assigned inside a try.
import fs from "node:fs";
import path from "node:path";

const ledgerPath = path.join(process.argv[2], "state", "observations.jsonl");
let content: string;
try {
  content = fs.readFileSync(ledgerPath, "utf-8");
} catch {
  process.exit(0);
}
const cutoff = Date.now() - 30 * 86400000;
const kept = content.split("\n").filter((l) => l.trim() && Date.parse(JSON.parse(l).ts) >= cutoff);
const tmp = `${ledgerPath}.${process.pid}.tmp`;
fs.writeFileSync(tmp, kept.join("\n") + "\n", "utf-8");
fs.renameSync(tmp, ledgerPath);
