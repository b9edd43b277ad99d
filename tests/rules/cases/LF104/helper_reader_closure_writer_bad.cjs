// An index compactor: the index file is read through a helper that parses it
// record by record in another helper, filtered, written to a scratch file and
// moved over the index from a closure. Records another process appends
// between the read and the move are lost.
const { readFile, writeFile } = require("fs/promises");
const { moveFile } = require("@npmcli/fs");
const { randomUUID } = require("crypto");
const path = require("path");

function indexFile(dir) {
  return path.join(dir, "index.jsonl");
}

function parseRecords(text) {
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

async function loadRecords(file) {
  const text = await readFile(file, "utf8");
  return parseRecords(text);
}

async function compactIndex(dir, keep) {
  const file = indexFile(dir);
  const records = await loadRecords(file);
  const kept = records.filter(keep);
  const scratch = path.join(dir, `.${randomUUID()}`);
  const publish = async () => {
    await writeFile(scratch, kept.map((r) => JSON.stringify(r)).join("\n"));
    await moveFile(scratch, file);
  };
  await publish();
  return kept.length;
}

module.exports = { compactIndex, loadRecords };
