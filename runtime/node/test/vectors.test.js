'use strict';
// The shared vectors (runtime/tests/vectors/records.json) against the Node
// binding: record parsing (ownerRead), the judgement of what sits at a lock path
// (reclaimIfStale and both strategies' acquisitions) and processAlive.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

const lockrt = require('../index.js');
const { tempDir } = require('./helpers.js');

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'tests', 'vectors', 'records.json'), 'ascii'));
const raw = (text) => Buffer.from(text, 'latin1'); // the vectors' strings: one character per byte

function procStat(pid) {
  const data = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  const fields = data.slice(data.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], start: BigInt(fields[19]) };
}

/** dead: a reaped child; zombie: an exited child of a process that never reaps
 * it (perl, essential on Debian: a shell may reap its background jobs itself). */
async function symbols(t) {
  const dead = spawnSync('true').pid;
  const keeper = spawn('perl', ['-e', '$| = 1; my $p = fork; exit 0 if $p == 0; print "$p\\n"; sleep 600'],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => keeper.kill('SIGKILL'));
  const line = await new Promise((resolve) => readline.createInterface({ input: keeper.stdout }).once('line', resolve));
  const zombie = Number(line);
  const deadline = Date.now() + 30000;
  while (procStat(zombie).state !== 'Z') {
    assert.ok(Date.now() < deadline, 'the child never became a zombie');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return { self: BigInt(process.pid), dead: BigInt(dead), zombie: BigInt(zombie), selfStart: procStat(process.pid).start };
}

const pidOf = (sym, v) => (v === 'self' || v === 'dead' || v === 'zombie' ? sym[v] : BigInt(v));
const startOf = (sym, v) => (v === 'self' ? sym.selfStart : v === 'self+1' ? sym.selfStart + 1n : BigInt(v));
function hostOf(v) {
  if (v === 'self') return Buffer.from(os.hostname());
  if (v === 'self.') return Buffer.from(os.hostname() + '.');
  if (v === 'other') return Buffer.from('elsewhere.invalid');
  return raw(v);
}

function oslockFree(file) {
  const handle = lockrt.exclusiveLock(file, { timeout: 0, strategy: 'oslock' });
  if (handle) handle.release();
  return handle !== null;
}

function corrupt(err) {
  return err instanceof lockrt.LockrtError && err.code === 'LOCKRT_ECORRUPT';
}

test('records: parsed exactly as the C library parses them', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'r.lock');
  for (const v of doc.records) {
    const data = raw(v.bytes);
    fs.writeFileSync(file, data);
    if (v.expect === 'record') {
      const o = lockrt.ownerRead(file);
      assert.equal(BigInt(o.pid), BigInt(v.pid), v.name);
      assert.equal(o.startTime, BigInt(v.start_time), v.name);
      assert.equal(o.host, raw(v.host).toString('utf8'), v.name);
      assert.equal(o.token, v.token, v.name);
      if (!raw(v.host).equals(Buffer.from(os.hostname()))) {
        assert.equal(oslockFree(file), false, `${v.name}: another host's record holds`);
        assert.equal(lockrt.reclaimIfStale(file), false, v.name);
      }
    } else {
      assert.equal(v.expect, 'rejected');
      assert.ok(v.reason, v.name);
      assert.throws(() => lockrt.ownerRead(file), corrupt, v.name);
      assert.throws(() => lockrt.reclaimIfStale(file), corrupt, v.name);
      assert.equal(oslockFree(file), true, `${v.name}: not a record, holds nothing`);
    }
    assert.ok(fs.readFileSync(file).equals(data), `${v.name}: the file changed`);
  }
});

test('judgements: stale, held or not a record, as the C library judges', async (t) => {
  const sym = await symbols(t);
  const dir = tempDir(t);
  const file = path.join(dir, 'j.lock');
  for (const v of doc.judgements) {
    const data = Buffer.concat([
      Buffer.from(`{"pid":${pidOf(sym, v.pid)},"start_time":${startOf(sym, v.start_time)},"host":"`),
      hostOf(v.host),
      Buffer.from(`","token":"${doc.token}"}${v.drop_newline ? '' : '\n'}`),
      raw(v.append || ''),
    ]);
    fs.writeFileSync(file, data);
    if (v.verdict === 'not_record') {
      assert.throws(() => lockrt.reclaimIfStale(file), corrupt, v.name);
    } else {
      assert.equal(lockrt.reclaimIfStale(file), v.verdict === 'stale', v.name);
    }
    assert.equal(fs.existsSync(file), v.verdict !== 'stale', v.name);
    fs.writeFileSync(file, data);
    assert.equal(oslockFree(file), v.verdict !== 'held', v.name);
    assert.ok(fs.readFileSync(file).equals(data), `${v.name}: the OS lock changed the file`);
    const handle = lockrt.exclusiveLock(file, { timeout: 0, strategy: 'lockfile' });
    assert.equal(handle !== null, v.verdict === 'stale', v.name);
    if (handle) {
      handle.release();
      assert.equal(fs.existsSync(file), false, v.name);
    } else {
      assert.ok(fs.readFileSync(file).equals(data), `${v.name}: the lockfile acquisition changed the file`);
    }
    fs.rmSync(file, { force: true });
  }
});

test('liveness: processAlive answers as the C library does, in both forms', async (t) => {
  const sym = await symbols(t);
  for (const v of doc.liveness) {
    const pid = pidOf(sym, v.pid);
    const start = startOf(sym, v.start_time);
    assert.equal(lockrt.processAlive(pid, start), v.expect, `${v.name} (bigint)`);
    assert.equal(await lockrt.promises.processAlive(pid, start), v.expect, `${v.name} (promise)`);
    if (pid >= -(2n ** 53n) && pid <= 2n ** 53n) {
      assert.equal(lockrt.processAlive(Number(pid), start), v.expect, `${v.name} (number)`);
    }
  }
  assert.throws(() => lockrt.processAlive(1.5), TypeError);
  assert.throws(() => lockrt.processAlive(NaN), TypeError);
  assert.throws(() => lockrt.processAlive(Infinity), TypeError);
  assert.equal(lockrt.processAlive(2 ** 64), 'unknown'); // a number beyond int64
});
