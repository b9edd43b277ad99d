'use strict';
// The lock directory of the vendored lockrt.cjs (takeLockDirSync /
// takeLockDir, what the protocol swap calls for a module whose own lock is an
// exclusive mkdir), run with `node --test`: the directory holds exactly
// lockrt's owner record while held and is gone after release; a live holder
// is waited for; a dead holder's directory is reclaimed; a directory without
// a record (the old code's, or a maker that died before writing) and
// anything that is not a directory are never removed; the old code's rmdir
// cannot break a held one; a release leaves a successor's directory; and
// real processes incrementing one counter lose nothing.
const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const LOCKRT = path.join(__dirname, '..', 'lockrt.cjs');
const lockrt = require(LOCKRT);
const RECORD = '.lockrt-owner';
const OWN = new RegExp(`^\\{"pid":${process.pid},"start_time":(0|[1-9][0-9]*),"host":"[^"]*","token":"[0-9a-f]{32}"\\}\\n$`);

function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockrt-dirlock-'));
  scratchDirs.push(dir);
  return dir;
}

// every scratch directory goes when the file's tests are done
const scratchDirs = [];
after(() => {
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function deadRecord() {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return `{"pid":${child.stdout.toString()},"start_time":0,"host":"${os.hostname()}","token":"${'ab'.repeat(16)}"}\n`;
}

function snapshot(p) {
  const st = fs.lstatSync(p);
  return { ino: st.ino, entries: st.isDirectory() ? fs.readdirSync(p).sort() : null };
}

test('the directory holds exactly the owner record while held, and is gone after release', async () => {
  const dir = scratch();
  const lock = path.join(dir, 'state.json.lock');
  const release = lockrt.takeLockDirSync(lock);
  assert.equal(typeof release, 'function');
  assert.ok(fs.lstatSync(lock).isDirectory());
  assert.deepEqual(fs.readdirSync(lock), [RECORD]);
  assert.match(fs.readFileSync(path.join(lock, RECORD), 'utf8'), OWN);
  release();
  release(); // a second call does nothing
  assert.deepEqual(fs.readdirSync(dir), []);
  const again = await lockrt.takeLockDir(lock);
  assert.deepEqual(fs.readdirSync(lock), [RECORD]);
  again();
  assert.deepEqual(fs.readdirSync(dir), []);
});

test('a live holder is waited for up to the timeout and left as it is; the lock is taken once it is free', () => {
  const dir = scratch();
  const lock = path.join(dir, 'held.lock');
  const holder = spawn(process.execPath, ['-e', `
    const release = require(${JSON.stringify(LOCKRT)}).takeLockDirSync(${JSON.stringify(lock)});
    process.stdout.write('held\\n');
    process.stdin.once('data', () => { release(); process.stdout.write('released\\n'); });`],
  { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = (want) => new Promise((resolve) => {
    let got = '';
    const on = (d) => { got += d; if (got.includes(want)) { holder.stdout.off('data', on); resolve(); } };
    holder.stdout.on('data', on);
  });
  return line('held').then(async () => {
    const before = snapshot(lock);
    const record = fs.readFileSync(path.join(lock, RECORD));
    const t0 = Date.now();
    assert.equal(lockrt.takeLockDirSync(lock, { timeout: 300 }), null);
    assert.ok(Date.now() - t0 >= 280);
    assert.equal(await lockrt.takeLockDir(lock, { timeout: 100 }), null);
    assert.deepEqual(snapshot(lock), before);
    assert.deepEqual(fs.readFileSync(path.join(lock, RECORD)), record);
    holder.stdin.write('go\n');
    await line('released');
    const release = await lockrt.takeLockDir(lock, { timeout: 2000 });
    assert.equal(typeof release, 'function');
    assert.match(fs.readFileSync(path.join(lock, RECORD), 'utf8'), OWN);
    release();
    assert.deepEqual(fs.readdirSync(dir), []);
    holder.kill();
  });
});

test("a dead holder's directory is reclaimed", () => {
  const dir = scratch();
  const lock = path.join(dir, 'dead.lock');
  fs.mkdirSync(lock);
  fs.writeFileSync(path.join(lock, RECORD), deadRecord());
  const release = lockrt.takeLockDirSync(lock, { timeout: 2000 });
  assert.equal(typeof release, 'function');
  assert.match(fs.readFileSync(path.join(lock, RECORD), 'utf8'), OWN);
  release();
  assert.deepEqual(fs.readdirSync(dir), []);
});

test("a dead holder's directory that holds other files is not removed", () => {
  const dir = scratch();
  const lock = path.join(dir, 'dead.lock');
  fs.mkdirSync(lock);
  fs.writeFileSync(path.join(lock, RECORD), deadRecord());
  fs.writeFileSync(path.join(lock, 'notes'), 'keep');
  // the record goes (its owner is gone); the directory, not empty, stays with
  // what else it holds, and is then a directory without a record
  assert.equal(lockrt.takeLockDirSync(lock, { timeout: 200 }), null);
  assert.deepEqual(fs.readdirSync(lock), ['notes']);
  assert.equal(fs.readFileSync(path.join(lock, 'notes'), 'utf8'), 'keep');
  assert.deepEqual(fs.readdirSync(dir), ['dead.lock']);
});

test('a directory with no record is held while young and refused when old, never removed', async () => {
  const dir = scratch();
  const lock = path.join(dir, 'old-code.lock');
  fs.mkdirSync(lock);
  fs.writeFileSync(path.join(lock, 'info'), '{"pid": 1}');
  fs.utimesSync(lock, new Date(), new Date());
  assert.equal(lockrt.takeLockDirSync(lock, { timeout: 150 }), null);
  fs.utimesSync(lock, new Date(0), new Date(0));
  const before = snapshot(lock);
  assert.throws(() => lockrt.takeLockDirSync(lock, { timeout: 5000 }), { code: 'LOCKRT_ECORRUPT' });
  await assert.rejects(lockrt.takeLockDir(lock), { code: 'LOCKRT_ECORRUPT' });
  assert.deepEqual(snapshot(lock), before);
  // a record that is not lockrt's, old: refused the same way
  const foreign = path.join(dir, 'foreign.lock');
  fs.mkdirSync(foreign);
  fs.writeFileSync(path.join(foreign, RECORD), 'not a record\n');
  fs.utimesSync(path.join(foreign, RECORD), new Date(0), new Date(0));
  assert.throws(() => lockrt.takeLockDirSync(foreign, { timeout: 5000 }), { code: 'LOCKRT_ECORRUPT' });
  assert.equal(fs.readFileSync(path.join(foreign, RECORD), 'utf8'), 'not a record\n');
});

test('a symlink, a file, or a missing parent at the lock path is thrown, and nothing is touched', async () => {
  const dir = scratch();
  const target = path.join(dir, 'target');
  fs.mkdirSync(target);
  fs.writeFileSync(path.join(target, RECORD), deadRecord());
  const link = path.join(dir, 'link.lock');
  fs.symlinkSync(target, link);
  assert.throws(() => lockrt.takeLockDirSync(link), { code: 'LOCKRT_ESYMLINK' });
  assert.equal(fs.readlinkSync(link), target);
  assert.deepEqual(fs.readdirSync(target), [RECORD]);
  const file = path.join(dir, 'file.lock');
  fs.writeFileSync(file, 'x');
  assert.throws(() => lockrt.takeLockDirSync(file), { code: 'LOCKRT_EBADTYPE' });
  assert.equal(fs.readFileSync(file, 'utf8'), 'x');
  await assert.rejects(lockrt.takeLockDir(path.join(dir, 'missing', 'x.lock')), { code: 'ENOENT' });
});

test("the old code's rmdir cannot break a held directory, and a release leaves a successor's", () => {
  const dir = scratch();
  const lock = path.join(dir, 'state.lock');
  const release = lockrt.takeLockDirSync(lock);
  // an unpatched process that judged the lock stale by its age
  assert.throws(() => fs.rmdirSync(lock), { code: 'ENOTEMPTY' });
  assert.deepEqual(fs.readdirSync(lock), [RECORD]);
  // a recursive rm by name (what an old takeover did) does remove it; a
  // successor then holds the path, and this process's release leaves it
  fs.rmSync(lock, { recursive: true });
  const successor = spawnSync(process.execPath, ['-e', `
    require(${JSON.stringify(LOCKRT)}).takeLockDirSync(${JSON.stringify(lock)});`]);
  assert.equal(successor.status, 0);
  const before = snapshot(lock);
  const record = fs.readFileSync(path.join(lock, RECORD));
  release();
  assert.deepEqual(snapshot(lock), before);
  assert.deepEqual(fs.readFileSync(path.join(lock, RECORD)), record);
});

test('4 processes x 100 increments under takeLockDir lose nothing, and none times out', async () => {
  const dir = scratch();
  const doc = path.join(dir, 'counter.json');
  const go = path.join(dir, 'go');
  const worker = (take) => `
    const fs = require('fs');
    const lockrt = require(${JSON.stringify(LOCKRT)});
    const doc = ${JSON.stringify(doc)};
    (async () => {
      while (!fs.existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 1));
      for (let i = 0; i < 100; i++) {
        const release = ${take === 'sync' ? 'lockrt.takeLockDirSync' : 'await lockrt.takeLockDir'}(doc + '.lock', { timeout: 60000 });
        if (release === null) process.exit(3);
        try {
          let data = {};
          try { data = JSON.parse(fs.readFileSync(doc, 'utf8')); } catch {}
          data.n = (data.n || 0) + 1;
          fs.writeFileSync(doc, JSON.stringify(data));
        } finally {
          release();
        }
      }
    })();`;
  const procs = ['sync', 'async', 'sync', 'async'].map((k) => spawn(process.execPath, ['-e', worker(k)], { stdio: 'inherit' }));
  await new Promise((r) => setTimeout(r, 200));
  fs.writeFileSync(go, '');
  const codes = await Promise.all(procs.map((p) => new Promise((r) => p.on('exit', r))));
  assert.deepEqual(codes, [0, 0, 0, 0]);
  assert.equal(JSON.parse(fs.readFileSync(doc, 'utf8')).n, 400);
  assert.deepEqual(fs.readdirSync(dir).sort(), ['counter.json', 'go']);
});
