// A hook that rotates a shared JSON-lines log: it reads it, archives the
// content, then empties the log; lines other hooks append in between go.
import { existsSync, readFileSync, renameSync, appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const LOG_FILE = join(process.env.HOME || ".", ".hooks", "events.jsonl");

if (existsSync(LOG_FILE)) {
  const content = readFileSync(LOG_FILE, "utf-8");
  const archive = `${LOG_FILE}.${new Date().toISOString().slice(0, 10)}`;
  if (existsSync(archive)) {
    appendFileSync(archive, content);
  } else {
    renameSync(LOG_FILE, archive);
  }
  if (existsSync(LOG_FILE)) {
    writeFileSync(LOG_FILE, "");
  }
}
