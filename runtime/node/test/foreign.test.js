'use strict';
// Issue 11, item 4: a file at a lock path that is not a complete, well-formed
// owner record is never removed, whatever its age or size; it is left byte for
// byte, and every wait ends within its timeout (sync and promise forms).
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const lockrt = require('../index.js');
const { tempDir } = require('./helpers.js');

const TIMEOUT_MS = 300;
const HANG_GUARD_MS = 10000; // not a timing test: reading a huge file whole would take minutes
const TEN_YEARS_S = 10 * 365 * 24 * 3600;
const TOKEN = 'f0' + '0'.repeat(30);

function deadPid() {
  return spawnSync('true').pid;
}

function record(pid, host = os.hostname()) {
  return Buffer.from(`{"pid":${pid},"start_time":0,"host":"${host}","token":"${TOKEN}"}\n`);
}

/** At least 4 GiB, 1 TiB where the filesystem allows. */
function makeSparse(file, head, tail) {
  const fd = fs.openSync(file, 'w');
  try {
    for (const size of [2 ** 40, 2 ** 36, 2 ** 32]) {
      try {
        fs.ftruncateSync(fd, size);
      } catch {
        continue;
      }
      fs.writeSync(fd, head, 0, head.length, 0);
      fs.writeSync(fd, tail, 0, tail.length, size - tail.length);
      return;
    }
    throw new Error('no sparse file of at least 4 GiB on this filesystem');
  } finally {
    fs.closeSync(fd);
  }
}

function makeForeign(file, kind) {
  const pid = deadPid(); // a record naming it would be reclaimable
  const rec = record(pid);
  switch (kind) {
    case 'json': { // a user's 2 MB JSON file that even carries the record's keys
      const head = Buffer.concat([rec.subarray(0, rec.length - 2), Buffer.from(',"data":"')]);
      const body = Buffer.alloc(2 * 1024 * 1024 - head.length - 3, 'x');
      fs.writeFileSync(file, Buffer.concat([head, body, Buffer.from('"}\n')]));
      break;
    }
    case 'garbage':
      fs.writeFileSync(file, Buffer.from(Array.from({ length: 200 }, (_, i) => (i * 37 + 11) % 256)));
      break;
    case 'empty':
      fs.writeFileSync(file, '');
      break;
    case 'sparse':
      makeSparse(file, rec.subarray(0, rec.length - 1), Buffer.from('\n'));
      break;
    case 'trailing': // a dead owner's record, then one byte more
      fs.writeFileSync(file, Buffer.concat([rec, Buffer.from('x')]));
      break;
    case 'duplicate': // a dead owner's record with its pid given twice
      fs.writeFileSync(file, rec.toString().replace(`{"pid":${pid},`, `{"pid":${pid},"pid":${pid},`));
      break;
    default:
      throw new Error(kind);
  }
}

/** Inode, size, mtime, ctime (a rename or a write changes it), blocks, both
 * ends, and for files up to 64 MiB a hash of every byte. */
function snapshot(file) {
  const st = fs.lstatSync(file, { bigint: true });
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(64);
    const tail = Buffer.alloc(64);
    const hn = fs.readSync(fd, head, 0, 64, 0);
    const tn = fs.readSync(fd, tail, 0, 64, Number(st.size > 64n ? st.size - 64n : 0n));
    let digest = null;
    if (st.size <= 64n * 1024n * 1024n) digest = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    return {
      dev: st.dev, ino: st.ino, size: st.size, blocks: st.blocks, mtime: st.mtimeNs, ctime: st.ctimeNs,
      head: head.subarray(0, hn).toString('hex'), tail: tail.subarray(0, tn).toString('hex'), digest,
    };
  } finally {
    fs.closeSync(fd);
  }
}

function expectStatus(fn, code) {
  assert.throws(fn, (err) => err instanceof lockrt.LockrtError && err.code === code);
}

for (const kind of ['json', 'garbage', 'empty', 'sparse', 'trailing', 'duplicate']) {
  for (const age of ['young', 'old']) {
    test(`a foreign file at the lock path is left byte for byte: ${kind}, ${age}`, async (t) => {
      const dir = tempDir(t);
      const file = path.join(dir, `${kind}-${age}.lock`);
      makeForeign(file, kind);
      if (age === 'old') {
        const past = Date.now() / 1000 - TEN_YEARS_S;
        fs.utimesSync(file, past, past);
      }
      const before = snapshot(file);

      expectStatus(() => lockrt.ownerRead(file), 'LOCKRT_ECORRUPT');
      expectStatus(() => lockrt.reclaimIfStale(file), 'LOCKRT_ECORRUPT');
      expectStatus(() => lockrt.releaseIfOwned(file, TOKEN), 'LOCKRT_ECORRUPT');
      await assert.rejects(lockrt.promises.reclaimIfStale(file), { code: 'LOCKRT_ECORRUPT' });

      // lockfile strategy: held while young (the wait times out), reported once old
      const opts = { timeout: TIMEOUT_MS, strategy: 'lockfile' };
      let started = Date.now();
      if (age === 'young') {
        assert.equal(lockrt.exclusiveLock(file, opts), null);
        assert.equal(await lockrt.promises.exclusiveLock(file, opts), null);
      } else {
        expectStatus(() => lockrt.exclusiveLock(file, opts), 'LOCKRT_ECORRUPT');
        await assert.rejects(lockrt.promises.exclusiveLock(file, opts), { code: 'LOCKRT_ECORRUPT' });
      }
      assert.ok(Date.now() - started < HANG_GUARD_MS, 'the wait honours its timeout');

      // OS lock strategy: the flock is the lock; the file is not read past a
      // record's size, not changed, not removed.
      started = Date.now();
      for (const strategy of ['oslock', undefined]) {
        const handle = lockrt.exclusiveLock(file, { timeout: TIMEOUT_MS, strategy });
        assert.notEqual(handle, null);
        handle.release();
      }
      const handle = await lockrt.promises.exclusiveLock(file, { timeout: TIMEOUT_MS, strategy: 'oslock' });
      assert.notEqual(handle, null);
      handle.release();
      assert.ok(Date.now() - started < HANG_GUARD_MS, 'the wait honours its timeout');

      assert.deepEqual(snapshot(file), before);
      assert.deepEqual(fs.readdirSync(dir), [path.basename(file)]); // nothing quarantined or left
    });
  }
}

test('a live owner record with one flaw is not one', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'l');
  const live = record(process.pid);
  fs.writeFileSync(file, live);
  assert.equal(lockrt.exclusiveLock(file, { timeout: 100 }), null);
  assert.equal(lockrt.ownerRead(file).pid, process.pid);
  const text = live.toString();
  for (const flawed of [text + 'x', text.slice(0, -1), text.replace('{"pid"', '{"pid":1,"pid"'),
    text.replace('0'.repeat(30), '0'.repeat(29))]) {
    fs.writeFileSync(file, flawed);
    const handle = lockrt.exclusiveLock(file, { timeout: 5000 });
    assert.notEqual(handle, null, flawed);
    handle.release();
    assert.equal(fs.readFileSync(file, 'utf8'), flawed);
  }
});
