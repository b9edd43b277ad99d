// Behaviour of a module patched by the LF401 fix, run with `node --test`.
// LF_MODULE: the patched module (ESM or CommonJS); LF_CASE: which case it is.
// A write publishes the whole document, leaves no temp behind, keeps the mode
// the old code gave the target, and a failed rename removes its temp and
// rethrows.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const loaded = await import(pathToFileURL(process.env.LF_MODULE).href);
const api = { ...loaded.default, ...loaded }; // CommonJS exports arrive as the default
const umask = process.umask();

// How each case writes `doc` to `file`, and what the file then holds.
const CASES = {
  lf401_template_plain: { write: (file, doc) => api.publish(file, doc), expect: (doc) => doc },
  lf401_join_async: {
    write: (file, doc) => api.putEntry(path.dirname(file), path.basename(file), doc),
    expect: (doc) => doc,
    mode: 0o640 & ~umask,
  },
  lf401_named_promises: {
    write: (file, doc) => api.storeReport(file, { body: doc }),
    expect: (doc) => null,
    check: (text, doc) => assert.equal(JSON.parse(text).body, doc),
  },
  lf401_reuse_alias: {
    before: (file) => { fs.writeFileSync(file, "old\n"); fs.chmodSync(file, 0o600); },
    write: (file, doc) => api.rewriteJournal(file, [doc]),
    expect: (doc) => doc + "\n",
    mode: 0o600,
  },
  lf401_require_var: {
    write: (file, doc) => api.saveState(file, { doc }),
    expect: (doc) => JSON.stringify({ doc }) + os.EOL,
  },
  lf401_inline: { write: (file, doc) => api.save(file, doc), expect: (doc) => doc, mode: 0o600 & ~umask },
  lf401_inline_join: {
    write: (file, doc) => api.store(path.dirname(file), path.basename(file), doc),
    expect: (doc) => doc,
  },
  lf401_require_semi: {
    write: (file, doc) => api.writeCounters(file, { doc }),
    expect: (doc) => JSON.stringify({ doc }),
  },
};
const c = CASES[process.env.LF_CASE];

function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lf401-"));
  scratchDirs.push(dir);
  return dir;
}

// every scratch directory goes when the file's tests are done
const scratchDirs = [];
after(() => {
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
});

test("publishes the whole document and leaves no temp", async () => {
  const dir = scratch();
  const file = path.join(dir, "doc.json");
  if (c.before) c.before(file);
  for (const doc of ["first", "second ".repeat(5000)]) {
    await c.write(file, doc);
    const text = fs.readFileSync(file, "utf8");
    if (c.check) c.check(text, doc);
    else assert.equal(text, c.expect(doc));
  }
  assert.deepEqual(fs.readdirSync(dir), ["doc.json"]);
  const want = c.mode ?? (0o666 & ~umask);
  assert.equal(fs.statSync(file).mode & 0o777, want);
});

test("a failed rename removes its temp and rethrows", async () => {
  const dir = scratch();
  const file = path.join(dir, "doc.json");
  // a non-empty directory at the target: the write succeeds, the rename fails
  fs.mkdirSync(file);
  fs.writeFileSync(path.join(file, "keep"), "");
  await assert.rejects(async () => c.write(file, "doc"), (e) => ["EISDIR", "ENOTEMPTY", "EEXIST", "ENOTDIR"].includes(e.code));
  assert.deepEqual(fs.readdirSync(dir), ["doc.json"]);
});
