// One writer of the LF401 contention test: publishes its own documents
// through the module's publish(file, text) again and again, reading the target
// after each write. Prints {"errors": {code: n}, "torn": n} as JSON.
import fs from "node:fs";
import { pathToFileURL } from "node:url";

const [modulePath, target, id, rounds] = process.argv.slice(2);
const { publish } = await import(pathToFileURL(modulePath).href);
const pad = String(id).repeat(200000); // large enough that a write is not one page
const errors = {};
let torn = 0;
for (let i = 0; i < Number(rounds); i++) {
  try {
    publish(target, JSON.stringify({ writer: id, seq: i, pad }));
  } catch (e) {
    errors[e.code ?? e.message] = (errors[e.code ?? e.message] ?? 0) + 1;
  }
  try {
    const doc = JSON.parse(fs.readFileSync(target, "utf8"));
    if (doc.pad !== String(doc.writer).repeat(200000)) torn++;
  } catch (e) {
    if (e.code !== "ENOENT") torn++; // a published file that is not one whole document
  }
}
process.stdout.write(JSON.stringify({ errors, torn }) + "\n");
