// Reading through a parsing helper and writing somewhere else (a report next
// to the index, never the index itself) is no read-modify-write.
const { readFile, writeFile } = require("fs/promises");
const path = require("path");

async function loadRecords(file) {
  return JSON.parse(await readFile(file, "utf8"));
}

async function summarize(dir) {
  const records = await loadRecords(path.join(dir, "index.json"));
  const report = path.join(dir, "summary.json");
  const write = async () => writeFile(report, JSON.stringify({ count: records.length }));
  await write();
}

module.exports = { summarize };
