// Behaviour of a module patched by the LF301 fix, run with `node --test`.
// LF_MODULE: the module (ESM or CommonJS, lockrt.cjs beside it when patched);
// LF_CASE: which case; LF_DIR: an empty directory for its lock. The lock is
// taken and released as before (same bytes and mode, exclusive), a missing
// lock fails the release as before, and a successor's lock, put in place
// while the holder held its own, survives the holder's release byte for byte
// (which the unpatched module fails: it deletes it).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { caseOf, holder, lockFileIn } from "./adapters.mjs";

const name = process.env.LF_CASE;
const dir = process.env.LF_DIR;
const c = caseOf(name);
const file = lockFileIn(name, dir);
const hold = await holder(name, process.env.LF_MODULE, file, 60_000);
const umask = process.umask();
const others = () => fs.readdirSync(dir).filter((f) => f !== "lockrt.cjs").sort();

test("the lock holds what the module writes, excludes a second holder, and is released", async () => {
  let inside = null, second = null;
  const took = await hold(() => {
    inside = fs.readFileSync(file, "utf8");
    if (c.mode !== undefined) assert.equal(fs.statSync(file).mode & 0o777, c.mode & ~umask);
    assert.throws(() => fs.writeFileSync(file, "x", { flag: "wx" }), { code: "EEXIST" });
    second = fs.readFileSync(file, "utf8");
  });
  assert.equal(took, true);
  assert.equal(inside, c.content());
  assert.equal(second, c.content());
  assert.deepEqual(others(), []); // released, nothing left behind
});

test("a successor's lock survives the holder's release, byte for byte", async () => {
  const successor = Buffer.from(c.content() === "host-a" ? "host-a" : '{"pid":4242,"host":"b"}\n');
  let ino = null;
  const took = await hold(() => {
    // while this holder works, another process judges its lock stale and takes over
    fs.unlinkSync(file);
    fs.writeFileSync(file, successor, { flag: "wx" });
    ino = fs.statSync(file).ino;
  });
  assert.equal(took, true);
  assert.deepEqual(fs.existsSync(file) ? fs.readFileSync(file) : null, successor);
  assert.equal(fs.statSync(file).ino, ino);
  assert.deepEqual(others(), [file.slice(dir.length + 1)]);
  fs.unlinkSync(file);
});

test("a lock gone before the release fails it as before", async () => {
  const run = hold(() => fs.unlinkSync(file));
  if (c.missing === "throws") await assert.rejects(run, { code: "ENOENT" });
  else assert.equal(await run, true);
  assert.deepEqual(others(), []);
});
