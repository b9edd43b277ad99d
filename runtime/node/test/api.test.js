'use strict';
// Behaviour of the Node binding: sync and promise forms of every operation.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const lockrt = require('../index.js');
const { tempDir, startHolder } = require('./helpers.js');

test('the addon comes from LOCKRT_NODE_ADDON when set', () => {
  if (process.env.LOCKRT_NODE_ADDON) {
    assert.equal(lockrt.addonPath, path.resolve(process.env.LOCKRT_NODE_ADDON));
  }
  assert.match(lockrt.addonPath, /lockrt\.node$/);
});

test('a missing addon is a clear error', () => {
  const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(path.join(__dirname, '..', 'index.js'))})`],
    { env: { ...process.env, LOCKRT_NODE_ADDON: '/nonexistent/lockrt.node' }, encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /lockrt: cannot load the native addon .*\/nonexistent\/lockrt\.node/);
});

test('exclusiveLock returns a handle; the lock file stays after release', (t) => {
  const dir = tempDir(t);
  const lockPath = path.join(dir, 'state.json.lock');
  const handle = lockrt.exclusiveLock(lockPath);
  assert.ok(handle instanceof lockrt.LockHandle);
  assert.equal(handle.held, true);
  assert.equal(handle.strategy, 'oslock');
  assert.equal(handle.token, '');
  assert.equal(handle.path, lockPath);
  assert.equal(lockrt.exclusiveLock(lockPath, { timeout: 0 }), null); // excluded within one process too
  handle.release();
  assert.equal(handle.held, false);
  handle.release(); // idempotent
  assert.ok(fs.statSync(lockPath).isFile());
  const again = lockrt.exclusiveLock(lockPath, { timeout: 0 });
  assert.notEqual(again, null);
  again.release();
});

test('timeout returns null while another process holds the lock', async (t) => {
  const dir = tempDir(t);
  const lockPath = path.join(dir, 'l');
  const holder = await startHolder(t, lockPath);
  const started = Date.now();
  assert.equal(lockrt.exclusiveLock(lockPath, { timeout: 300 }), null);
  assert.ok(Date.now() - started >= 250, 'a bounded wait, not an immediate give-up');
  assert.equal(await lockrt.promises.exclusiveLock(lockPath, { timeout: 200 }), null);
  await holder.release();
  const handle = lockrt.exclusiveLock(lockPath, { timeout: 5000 });
  assert.notEqual(handle, null);
  handle.release();
});

test('the promise form does not block the event loop while it waits', async (t) => {
  const dir = tempDir(t);
  const lockPath = path.join(dir, 'l');
  const holder = await startHolder(t, lockPath);
  let ticks = 0;
  const timer = setInterval(() => { ticks++; }, 10);
  const pending = lockrt.promises.exclusiveLock(lockPath, { timeout: 30000 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(ticks >= 2, `event loop stalled during the wait (${ticks} ticks)`); // blocked: 0
  await holder.release();
  const handle = await pending;
  clearInterval(timer);
  assert.notEqual(handle, null);
  assert.equal(handle.held, true);
  handle.release();
});

test('a SIGKILLed holder does not block the OS lock', async (t) => {
  const dir = tempDir(t);
  const lockPath = path.join(dir, 'l');
  const holder = await startHolder(t, lockPath, 'oslock');
  await holder.kill();
  const handle = lockrt.exclusiveLock(lockPath, { timeout: 5000 });
  assert.notEqual(handle, null);
  handle.release();
});

test('withExclusiveLock: sync, async fn, timeout, and release on throw', async (t) => {
  const dir = tempDir(t);
  const lockPath = path.join(dir, 'l');
  assert.equal(lockrt.withExclusiveLock(lockPath, { timeout: 1000 }, (acquired) => acquired && 'ran'), 'ran');
  assert.equal(lockrt.withExclusiveLock(lockPath, (acquired) => acquired), true);
  assert.throws(() => lockrt.withExclusiveLock(lockPath, () => { throw new Error('boom'); }), /boom/);
  // Released after the throw:
  assert.equal(lockrt.withExclusiveLock(lockPath, { timeout: 0 }, (a) => a), true);

  // An async fn passed to the sync form keeps the lock until it settles.
  let inside;
  const p = lockrt.withExclusiveLock(lockPath, async (acquired) => {
    await new Promise((r) => setTimeout(r, 50));
    inside = lockrt.exclusiveLock(lockPath, { timeout: 0 });
    return acquired;
  });
  assert.equal(await p, true);
  assert.equal(inside, null);
  assert.equal(lockrt.withExclusiveLock(lockPath, { timeout: 0 }, (a) => a), true);

  assert.equal(await lockrt.promises.withExclusiveLock(lockPath, { timeout: 1000 }, async (a) => a), true);
  await assert.rejects(lockrt.promises.withExclusiveLock(lockPath, async () => { throw new Error('later'); }), /later/);
  assert.equal(lockrt.withExclusiveLock(lockPath, { timeout: 0 }, (a) => a), true);

  const holder = await startHolder(t, lockPath);
  assert.equal(lockrt.withExclusiveLock(lockPath, { timeout: 100 }, (a) => a), false);
  assert.equal(await lockrt.promises.withExclusiveLock(lockPath, { timeout: 100 }, async (a) => a), false);
  await holder.release();
});

test('a symlink at the lock path is refused and not followed', async (t) => {
  const dir = tempDir(t);
  const victim = path.join(dir, 'victim');
  fs.writeFileSync(victim, 'precious');
  const link = path.join(dir, 'l');
  fs.symlinkSync(victim, link);
  const dangling = path.join(dir, 'd');
  fs.symlinkSync(path.join(dir, 'would-be-created'), dangling);
  for (const p of [link, dangling]) {
    assert.throws(() => lockrt.exclusiveLock(p, { timeout: 0 }), (err) => {
      assert.ok(err instanceof lockrt.LockrtError);
      assert.equal(err.name, 'LockrtError');
      assert.equal(err.code, 'LOCKRT_ESYMLINK');
      assert.equal(err.status, lockrt.status.ESYMLINK);
      assert.equal(err.path, p);
      assert.match(err.message, /LOCKRT_ESYMLINK/);
      return true;
    });
    await assert.rejects(lockrt.promises.exclusiveLock(p, { timeout: 0 }),
      (err) => err instanceof lockrt.LockrtError && err.code === 'LOCKRT_ESYMLINK');
  }
  assert.equal(fs.readFileSync(victim, 'utf8'), 'precious');
  assert.equal(fs.existsSync(path.join(dir, 'would-be-created')), false);
});

test('bad arguments are clear errors', (t) => {
  const dir = tempDir(t);
  assert.throws(() => lockrt.exclusiveLock(path.join(dir, 'l'), { strategy: 'bogus' }),
    (err) => err instanceof lockrt.LockrtError && err.code === 'LOCKRT_EINVAL');
  assert.throws(() => lockrt.exclusiveLock(path.join(dir, 'l\0x')),
    (err) => err instanceof lockrt.LockrtError && err.code === 'LOCKRT_EINVAL');
  assert.throws(() => lockrt.exclusiveLock(42), TypeError);
  assert.throws(() => lockrt.exclusiveLock(path.join(dir, 'l'), { timeout: 'soon' }), TypeError);
  assert.throws(() => lockrt.writeAtomic(path.join(dir, 'w'), 42), TypeError);
  assert.deepEqual(fs.readdirSync(dir), []);
});

test('confinedPath: joins, accepts a missing target in a symlinked dir, refuses escapes', async (t) => {
  const dir = tempDir(t);
  const real = path.join(dir, 'real');
  fs.mkdirSync(real);
  const state = path.join(dir, 'state');
  fs.symlinkSync(real, state);
  assert.equal(lockrt.confinedPath(state, 'turns.json'), path.join(state, 'turns.json'));
  assert.equal(await lockrt.promises.confinedPath(state, 'turns.json'), path.join(state, 'turns.json'));
  fs.writeFileSync(path.join(dir, 'secret'), 'x');
  fs.symlinkSync(path.join(dir, 'secret'), path.join(real, 'evil.json'));
  fs.writeFileSync(path.join(real, 'inside.json'), '{}');
  fs.symlinkSync(path.join(real, 'inside.json'), path.join(real, 'alias.json'));
  assert.equal(lockrt.confinedPath(real, 'alias.json'), path.join(real, 'alias.json'));
  for (const name of ['evil.json', '', '.', '..', 'a/b', '../x', 'a\\b', 'a\nb', 'a\x7fb']) {
    assert.throws(() => lockrt.confinedPath(real, name),
      (err) => err instanceof lockrt.LockrtError && ['LOCKRT_EESCAPE', 'LOCKRT_EINVAL'].includes(err.code), name);
  }
  assert.throws(() => lockrt.confinedPath(real, 'a\0b'), (err) => err.code === 'LOCKRT_EINVAL');
  await assert.rejects(lockrt.promises.confinedPath(real, 'evil.json'), (err) => err.code === 'LOCKRT_EESCAPE');
});

test('writeAtomic: string, Buffer, typed array, replace, no temp left', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 's.json');
  lockrt.writeAtomic(file, '{"a": 1}');
  assert.equal(fs.readFileSync(file, 'utf8'), '{"a": 1}');
  lockrt.writeAtomic(file, Buffer.from([0, 1, 2]));
  assert.deepEqual([...fs.readFileSync(file)], [0, 1, 2]);
  lockrt.writeAtomic(file, new Uint8Array([9, 8]));
  assert.deepEqual([...fs.readFileSync(file)], [9, 8]);
  await lockrt.promises.writeAtomic(file, 'ünïcode');
  assert.equal(fs.readFileSync(file, 'utf8'), 'ünïcode');
  lockrt.writeAtomic(file, '');
  assert.equal(fs.readFileSync(file, 'utf8'), '');
  assert.deepEqual(fs.readdirSync(dir), ['s.json']);
  assert.throws(() => lockrt.writeAtomic(path.join(dir, 'missing', 'x'), 'y'), lockrt.LockrtError);
  await assert.rejects(lockrt.promises.writeAtomic(path.join(dir, 'missing', 'x'), 'y'), lockrt.LockrtError);
  assert.deepEqual(fs.readdirSync(dir), ['s.json']);
});

test('processAlive / processStartTime', async () => {
  assert.equal(lockrt.processAlive(process.pid), 'alive');
  const start = lockrt.processStartTime(process.pid);
  assert.equal(typeof start, 'bigint');
  assert.ok(start > 0n);
  assert.equal(lockrt.processAlive(process.pid, start), 'alive');
  assert.equal(lockrt.processAlive(process.pid, start + 1n), 'dead'); // pid reused
  assert.equal(await lockrt.promises.processAlive(process.pid, start), 'alive');
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const deadPid = Number(child.stdout);
  assert.equal(lockrt.processAlive(deadPid), 'dead');
  assert.equal(lockrt.processStartTime(deadPid), null);
  if (fs.existsSync('/proc/self/stat')) {
    const raw = fs.readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    assert.equal(start, BigInt(raw.slice(raw.lastIndexOf(')') + 2).split(' ')[19]));
  }
});

test('EPERM counts as alive', { skip: process.getuid && process.getuid() === 0 ? false : 'needs root' }, () => {
  // An unprivileged process probing a root-owned one gets EPERM: alive.
  const script = `const l = require(${JSON.stringify(path.join(__dirname, '..', 'index.js'))});` +
    `process.setgid(65534); process.setuid(65534); process.stdout.write(l.processAlive(${process.pid}));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: '/' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'alive');
});

test('lockfile strategy: owner record, token, forced by option and environment', async (t) => {
  const dir = tempDir(t);
  const lockPath = path.join(dir, 'l');
  const handle = lockrt.exclusiveLock(lockPath, { strategy: 'lockfile', timeout: 1000 });
  assert.equal(handle.strategy, 'lockfile');
  assert.ok(handle.token.length > 0);
  const owner = lockrt.ownerRead(lockPath);
  assert.equal(owner.pid, process.pid);
  assert.equal(owner.token, handle.token);
  assert.equal(owner.startTime, lockrt.processStartTime(process.pid));
  assert.equal(lockrt.exclusiveLock(lockPath, { strategy: 'lockfile', timeout: 0 }), null);
  assert.equal(lockrt.releaseIfOwned(lockPath, `not-${handle.token}`), false);
  assert.ok(fs.existsSync(lockPath));
  handle.release();
  assert.equal(fs.existsSync(lockPath), false);

  const r = spawnSync(process.execPath, ['-e',
    `const l = require(${JSON.stringify(path.join(__dirname, '..', 'index.js'))});` +
    `const h = l.exclusiveLock(${JSON.stringify(lockPath)}); process.stdout.write(h.strategy); h.release();`],
  { env: { ...process.env, LOCKRT_STRATEGY: 'lockfile' }, encoding: 'utf8' });
  assert.equal(r.stdout, 'lockfile', r.stderr);
});

test('lockfile strategy: live holder times out, dead holder is reclaimed', async (t) => {
  const dir = tempDir(t);
  const lockPath = path.join(dir, 'l');
  let holder = await startHolder(t, lockPath, 'lockfile');
  assert.equal(holder.strategy, 'lockfile');
  assert.equal(lockrt.reclaimIfStale(lockPath), false); // owner alive
  assert.equal(await lockrt.promises.reclaimIfStale(lockPath), false);
  assert.equal(lockrt.exclusiveLock(lockPath, { strategy: 'lockfile', timeout: 200 }), null);
  await holder.kill();
  assert.equal(lockrt.processAlive(holder.pid), 'dead');
  assert.equal(lockrt.reclaimIfStale(lockPath), true);
  assert.equal(fs.existsSync(lockPath), false);
  assert.equal(lockrt.reclaimIfStale(lockPath), false);

  holder = await startHolder(t, lockPath, 'lockfile');
  await holder.kill();
  const handle = await lockrt.promises.exclusiveLock(lockPath, { strategy: 'lockfile', timeout: 10000 });
  assert.notEqual(handle, null); // acquisition reclaims the dead owner's record itself
  assert.equal(lockrt.ownerRead(lockPath).pid, process.pid);
  handle.release();

  holder = await startHolder(t, lockPath, 'lockfile');
  await holder.kill();
  assert.equal(lockrt.releaseIfOwned(lockPath, 'someone-else'), false);
  assert.equal(await lockrt.promises.releaseIfOwned(lockPath, holder.token), true);
  assert.equal(fs.existsSync(lockPath), false);
});

test('strerror and status constants', () => {
  assert.equal(lockrt.status.ESYMLINK, -3);
  assert.equal(typeof lockrt.strerror(lockrt.status.ETIMEDOUT), 'string');
  assert.ok(lockrt.strerror(lockrt.status.ETIMEDOUT).length > 0);
  assert.equal(lockrt.exclusiveLockAsync, lockrt.promises.exclusiveLock);
});

// Descriptors open on `file` in this process (Linux: /proc/self/fd).
function descriptorsOn(file) {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try { if (fs.readlinkSync(`/proc/self/fd/${fd}`) === file) n++; } catch { /* closed meanwhile */ }
  }
  return n;
}

test('closeIdleDescriptors closes the descriptor kept after a release; setKeptDescriptors bounds it',
  { skip: process.platform !== 'linux' && 'needs /proc/self/fd' }, (t) => {
    const dir = tempDir(t);
    const lockPath = path.join(fs.realpathSync(dir), 'kept.lock');
    const held = lockrt.exclusiveLock(lockPath, { strategy: 'oslock' });
    assert.equal(descriptorsOn(lockPath), 1);
    held.release();
    assert.equal(descriptorsOn(lockPath), 1, 'the unlocked descriptor is kept for the next acquisition');
    const again = lockrt.exclusiveLock(lockPath, { strategy: 'oslock' });
    assert.equal(descriptorsOn(lockPath), 1, 'the next acquisition reuses it');
    lockrt.closeIdleDescriptors();
    assert.equal(descriptorsOn(lockPath), 1, 'a held lock keeps its descriptor');
    again.release();
    lockrt.closeIdleDescriptors();
    assert.equal(descriptorsOn(lockPath), 0);

    const before = lockrt.setKeptDescriptors(0);
    t.after(() => lockrt.setKeptDescriptors(before));
    assert.equal(typeof before, 'number');
    lockrt.exclusiveLock(lockPath, { strategy: 'oslock' }).release();
    assert.equal(descriptorsOn(lockPath), 0, 'nothing is kept with a bound of 0');
    assert.equal(lockrt.setKeptDescriptors(before), 0);
    assert.throws(() => lockrt.setKeptDescriptors(-1), TypeError);
  });
