'use strict';
// The exclusive lock of the vendored lockrt.cjs (acquireLockSync /
// acquireLock, what LF104's TS/JS fix calls; takeLockSync / takeLock, which
// report a timeout and throw what keeps the lock from being taken), run
// with `node --test`: the
// owner record lockrt writes, a bounded wait on a live holder, a dead
// holder's record reclaimed, a foreign file never removed, and real processes
// incrementing one JSON counter lose nothing.
const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const LOCKRT = path.join(__dirname, '..', 'lockrt.cjs');
const lockrt = require(LOCKRT);

function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockrt-lock-'));
  scratchDirs.push(dir);
  return dir;
}

// every scratch directory goes when the file's tests are done
const scratchDirs = [];
after(() => {
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('the lock file holds this process\'s owner record while held, and is gone after release', () => {
  const dir = scratch();
  const file = path.join(dir, 'state.json.lock');
  const release = lockrt.acquireLockSync(file);
  const record = fs.readFileSync(file, 'utf8');
  assert.match(record, new RegExp(`^\\{"pid":${process.pid},"start_time":(0|[1-9][0-9]*),"host":"[^"]*","token":"[0-9a-f]{32}"\\}\\n$`));
  release();
  release(); // a second call does nothing
  assert.deepEqual(fs.readdirSync(dir), []);
});

test('a live holder is waited for, up to the timeout, and its record is left alone', () => {
  const dir = scratch();
  const file = path.join(dir, 'held.lock');
  const holder = spawn(process.execPath, ['-e', `
    const release = require(${JSON.stringify(LOCKRT)}).acquireLockSync(${JSON.stringify(file)});
    process.stdout.write('held\\n');
    setTimeout(() => { release(); }, 5000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => holder.stdout.once('data', resolve)).then(() => {
    const before = fs.readFileSync(file);
    const t0 = Date.now();
    const release = lockrt.acquireLockSync(file, { timeout: 300 });
    const waited = Date.now() - t0;
    assert.ok(waited >= 280 && waited < 3000, `waited ${waited} ms`);
    release(); // the no-op release of a lock not taken
    assert.deepEqual(fs.readFileSync(file), before);
    holder.kill();
  });
});

test('the record of a holder that is gone is reclaimed', () => {
  const dir = scratch();
  const file = path.join(dir, 'dead.lock');
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  const record = `{"pid":${child.stdout.toString()},"start_time":0,"host":"${os.hostname()}","token":"${'ab'.repeat(16)}"}\n`;
  fs.writeFileSync(file, record);
  const release = lockrt.acquireLockSync(file, { timeout: 2000 });
  assert.match(fs.readFileSync(file, 'utf8'), new RegExp(`^\\{"pid":${process.pid},`));
  release();
  assert.deepEqual(fs.readdirSync(dir), []);
});

test('a file that is not an owner record is never removed: the caller runs unlocked', () => {
  const dir = scratch();
  const file = path.join(dir, 'foreign.lock');
  fs.writeFileSync(file, '{"pid": 1}\n');
  fs.utimesSync(file, new Date(0), new Date(0));
  const t0 = Date.now();
  const release = lockrt.acquireLockSync(file, { timeout: 5000 });
  assert.ok(Date.now() - t0 < 1000);
  release();
  assert.equal(fs.readFileSync(file, 'utf8'), '{"pid": 1}\n');
});

test('a lock that cannot be created (no such directory) lets the caller run unlocked', async () => {
  const file = path.join(scratch(), 'missing', 'x.lock');
  const release = await lockrt.acquireLock(file);
  release();
  assert.equal(fs.existsSync(path.dirname(file)), false);
});

test('async tasks of one process exclude each other through acquireLock', async () => {
  const dir = scratch();
  const doc = path.join(dir, 'n.json');
  fs.writeFileSync(doc, '{"n":0}');
  const task = async () => {
    for (let i = 0; i < 20; i++) {
      const release = await lockrt.acquireLock(doc + '.lock');
      try {
        const data = JSON.parse(await fs.promises.readFile(doc, 'utf8'));
        await new Promise((r) => setImmediate(r));
        data.n += 1;
        await fs.promises.writeFile(doc, JSON.stringify(data));
      } finally {
        release();
      }
    }
  };
  await Promise.all([task(), task(), task(), task()]);
  assert.equal(JSON.parse(fs.readFileSync(doc, 'utf8')).n, 80);
});

test('4 processes x 100 increments under acquireLockSync lose nothing', async () => {
  const dir = scratch();
  const doc = path.join(dir, 'counter.json');
  const go = path.join(dir, 'go');
  const worker = `
    const fs = require('fs');
    const { acquireLockSync } = require(${JSON.stringify(LOCKRT)});
    const doc = ${JSON.stringify(doc)};
    while (!fs.existsSync(${JSON.stringify(go)})) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    for (let i = 0; i < 100; i++) {
      const release = acquireLockSync(doc + '.lock');
      try {
        let data = {};
        try { data = JSON.parse(fs.readFileSync(doc, 'utf8')); } catch {}
        data.n = (data.n || 0) + 1;
        fs.writeFileSync(doc, JSON.stringify(data));
      } finally {
        release();
      }
    }`;
  const procs = Array.from({ length: 4 }, () => spawn(process.execPath, ['-e', worker], { stdio: 'inherit' }));
  await new Promise((r) => setTimeout(r, 200));
  fs.writeFileSync(go, '');
  const codes = await Promise.all(procs.map((p) => new Promise((r) => p.on('exit', r))));
  assert.deepEqual(codes, [0, 0, 0, 0]);
  assert.equal(JSON.parse(fs.readFileSync(doc, 'utf8')).n, 400);
});

test('takeLockSync returns null when the wait on a live holder runs out, and takes the lock once it is free', () => {
  const dir = scratch();
  const file = path.join(dir, 'held.lock');
  const holder = spawn(process.execPath, ['-e', `
    const release = require(${JSON.stringify(LOCKRT)}).takeLockSync(${JSON.stringify(file)});
    process.stdout.write('held\\n');
    process.stdin.once('data', () => { release(); process.stdout.write('released\\n'); });`],
  { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = (want) => new Promise((resolve) => {
    let got = '';
    const on = (d) => { got += d; if (got.includes(want)) { holder.stdout.off('data', on); resolve(); } };
    holder.stdout.on('data', on);
  });
  return line('held').then(async () => {
    const before = fs.readFileSync(file);
    const t0 = Date.now();
    assert.equal(lockrt.takeLockSync(file, { timeout: 300 }), null);
    assert.ok(Date.now() - t0 >= 280);
    assert.equal(await lockrt.takeLock(file, { timeout: 100 }), null);
    assert.deepEqual(fs.readFileSync(file), before);
    holder.stdin.write('go\n');
    await line('released');
    const release = await lockrt.takeLock(file, { timeout: 2000 });
    assert.equal(typeof release, 'function');
    assert.match(fs.readFileSync(file, 'utf8'), new RegExp(`^\\{"pid":${process.pid},`));
    release();
    assert.deepEqual(fs.readdirSync(dir), []);
    holder.kill();
  });
});

test('takeLock throws what keeps the lock from being taken, and removes nothing', async () => {
  const dir = scratch();
  const foreign = path.join(dir, 'foreign.lock');
  fs.writeFileSync(foreign, '{"pid": 1}\n');
  fs.utimesSync(foreign, new Date(0), new Date(0));
  assert.throws(() => lockrt.takeLockSync(foreign, { timeout: 5000 }), { code: 'LOCKRT_ECORRUPT' });
  await assert.rejects(lockrt.takeLock(foreign), { code: 'LOCKRT_ECORRUPT' });
  assert.equal(fs.readFileSync(foreign, 'utf8'), '{"pid": 1}\n');
  const target = path.join(dir, 'target');
  fs.writeFileSync(target, 'keep');
  const link = path.join(dir, 'link.lock');
  fs.symlinkSync(target, link);
  assert.throws(() => lockrt.takeLockSync(link), { code: 'LOCKRT_ESYMLINK' });
  assert.equal(fs.readFileSync(target, 'utf8'), 'keep');
  assert.equal(fs.readlinkSync(link), target);
  await assert.rejects(lockrt.takeLock(path.join(dir, 'missing', 'x.lock')), { code: 'ENOENT' });
});

test('4 processes x 100 increments under takeLock lose nothing, and none times out', async () => {
  const dir = scratch();
  const doc = path.join(dir, 'counter.json');
  const go = path.join(dir, 'go');
  const worker = `
    const fs = require('fs');
    const { takeLock } = require(${JSON.stringify(LOCKRT)});
    const doc = ${JSON.stringify(doc)};
    (async () => {
      while (!fs.existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 1));
      for (let i = 0; i < 100; i++) {
        const release = await takeLock(doc + '.lock', { timeout: 60000 });
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
  const procs = Array.from({ length: 4 }, () => spawn(process.execPath, ['-e', worker], { stdio: 'inherit' }));
  await new Promise((r) => setTimeout(r, 200));
  fs.writeFileSync(go, '');
  const codes = await Promise.all(procs.map((p) => new Promise((r) => p.on('exit', r))));
  assert.deepEqual(codes, [0, 0, 0, 0]);
  assert.equal(JSON.parse(fs.readFileSync(doc, 'utf8')).n, 400);
});
