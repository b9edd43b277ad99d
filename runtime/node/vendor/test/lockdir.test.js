'use strict';
// The vendored lockrt.cjs on lock directories (an exclusive `mkdir`, released
// or broken with rmdir or a recursive rm), run with `node --test`: the create
// drop-ins make and fail as mkdir does; a release removes only the directory
// this process made; a takeover removes only the directory it judged; a
// successor's directory, or one written into since, is left as it is; what
// rmdir or rm refuses (a non-empty directory, a directory without
// `recursive`) still fails as it did, touching nothing.
const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const lockrt = require('../lockrt.cjs');

const linux = process.platform === 'linux';

function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockrt-dir-'));
  scratchDirs.push(dir);
  return dir;
}

// every scratch directory goes when the file's tests are done
const scratchDirs = [];
after(() => {
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function entries(dir) {
  return fs.readdirSync(dir).sort();
}

function errorOf(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail('expected an error');
}

// Another process's lock directory where ours was: ours broken by name (as a
// breaker running the unpatched module would), then made again.
function successorDir(lock, owner) {
  fs.rmSync(lock, { recursive: true, force: true });
  fs.mkdirSync(lock);
  if (owner !== undefined) fs.writeFileSync(path.join(lock, 'owner'), owner);
  return fs.lstatSync(lock).ino;
}

test('mkdirExclusiveSync makes what mkdirSync makes and fails as it fails', () => {
  const dir = scratch();
  const lock = path.join(dir, 'a.lock');
  const umask = process.umask();
  assert.equal(lockrt.mkdirExclusiveSync(lock, { mode: 0o750 }), undefined);
  assert.ok(fs.statSync(lock).isDirectory());
  assert.equal(fs.statSync(lock).mode & 0o777, 0o750 & ~umask);
  const want = errorOf(() => fs.mkdirSync(lock));
  const got = errorOf(() => lockrt.mkdirExclusiveSync(lock));
  assert.equal(got.code, want.code);
  assert.equal(got.message, want.message);
  // recursive: what mkdirSync returns (the first directory made), not remembered
  const deep = path.join(dir, 'x', 'y');
  assert.equal(lockrt.mkdirExclusiveSync(deep, { recursive: true }), fs.mkdirSync(path.join(dir, 'z', 'y'), { recursive: true }).replace(/z$/, 'x'));
  assert.equal(lockrt.releaseIfOwnedSync(deep), 'unknown');
});

test('rmdirOwnedSync removes the lock directory this process made', { skip: !linux }, () => {
  const dir = scratch();
  const lock = path.join(dir, 'b.lock');
  lockrt.mkdirExclusiveSync(lock);
  lockrt.rmdirOwnedSync(lock);
  assert.deepEqual(entries(dir), []);
  // made again and released again: each create binds its own release
  lockrt.mkdirExclusiveSync(lock);
  assert.equal(lockrt.releaseIfOwnedSync(lock), 'released');
  assert.deepEqual(entries(dir), []);
});

test("a successor's lock directory is left with its content and inode", { skip: !linux }, () => {
  const dir = scratch();
  const lock = path.join(dir, 'c.lock');
  lockrt.mkdirExclusiveSync(lock);
  const ino = successorDir(lock, 'B');
  lockrt.rmdirOwnedSync(lock); // as if released: the module goes on
  assert.equal(fs.lstatSync(lock).ino, ino);
  assert.equal(fs.readFileSync(path.join(lock, 'owner'), 'utf8'), 'B');
  assert.deepEqual(entries(dir), ['c.lock']); // nothing left aside
  // an empty successor too (rmdir would have removed it)
  lockrt.mkdirExclusiveSync(path.join(dir, 'd.lock'));
  const ino2 = successorDir(path.join(dir, 'd.lock'));
  lockrt.rmOwnedSync(path.join(dir, 'd.lock'), { recursive: true, force: true });
  assert.equal(fs.lstatSync(path.join(dir, 'd.lock')).ino, ino2);
  assert.deepEqual(entries(dir), ['c.lock', 'd.lock']);
});

test('a recursive rm releases the directory made here with what it holds', { skip: !linux }, async () => {
  const dir = scratch();
  const lock = path.join(dir, 'e.lock');
  await lockrt.mkdirExclusive(lock);
  fs.writeFileSync(path.join(lock, 'owner'), String(process.pid));
  await lockrt.rmOwned(lock, { recursive: true, force: true });
  assert.deepEqual(entries(dir), []);
  lockrt.mkdirExclusiveSync(lock);
  lockrt.rmOwnedSync(lock, { recursive: true });
  assert.deepEqual(entries(dir), []);
});

test('what rmdir and rm refuse still fails as before, and the lock stays held', { skip: !linux }, async () => {
  const dir = scratch();
  const lock = path.join(dir, 'f.lock');
  lockrt.mkdirExclusiveSync(lock);
  fs.writeFileSync(path.join(lock, 'owner'), '1');
  const want = errorOf(() => fs.rmdirSync(lock));
  const got = errorOf(() => lockrt.rmdirOwnedSync(lock));
  assert.equal(got.code, want.code); // ENOTEMPTY
  await assert.rejects(lockrt.rmdirOwned(lock), { code: want.code });
  const rmWant = errorOf(() => fs.rmSync(lock));
  assert.equal(errorOf(() => lockrt.rmOwnedSync(lock)).code, rmWant.code); // a directory without recursive
  assert.equal(errorOf(() => lockrt.unlinkOwnedSync(lock)).code, errorOf(() => fs.unlinkSync(lock)).code);
  assert.deepEqual(entries(lock), ['owner']);
  // still the lock this process made: emptied, it is released
  fs.unlinkSync(path.join(lock, 'owner'));
  lockrt.rmdirOwnedSync(lock);
  assert.deepEqual(entries(dir), []);
});

test('a missing lock directory fails as rmdir does; a directory made elsewhere is removed by name', async () => {
  const dir = scratch();
  const lock = path.join(dir, 'g.lock');
  lockrt.mkdirExclusiveSync(lock);
  fs.rmdirSync(lock);
  assert.equal(errorOf(() => lockrt.rmdirOwnedSync(lock)).code, 'ENOENT');
  fs.mkdirSync(lock); // made by this process without the drop-in: nothing known of it
  lockrt.rmdirOwnedSync(lock);
  assert.deepEqual(entries(dir), []);
  await assert.rejects(lockrt.rmdirOwned(lock), { code: 'ENOENT' });
});

test('rmdirJudgedSync removes only the directory judged, unchanged', { skip: !linux }, async () => {
  const dir = scratch();
  const lock = path.join(dir, 'h.lock');
  fs.mkdirSync(lock);
  lockrt.statJudgedSync(lock);
  lockrt.rmdirJudgedSync(lock);
  assert.deepEqual(entries(dir), []);
  // judged, then broken by another and made again: the successor's stays
  fs.mkdirSync(lock);
  lockrt.statJudgedSync(lock);
  const ino = successorDir(lock);
  lockrt.rmdirJudgedSync(lock);
  assert.equal(fs.lstatSync(lock).ino, ino);
  // judged, then its holder wrote into it (refreshed): it stays
  fs.rmdirSync(lock);
  fs.mkdirSync(lock);
  await lockrt.statJudged(lock);
  fs.writeFileSync(path.join(lock, 'heartbeat'), '1');
  await lockrt.rmdirJudged(lock);
  assert.deepEqual(entries(lock), ['heartbeat']);
  assert.deepEqual(entries(dir), ['h.lock']);
});

test('rmdirBoundSync: a judgement binds the takeover, a create binds the release', { skip: !linux }, () => {
  const dir = scratch();
  const lock = path.join(dir, 'i.lock');
  lockrt.mkdirExclusiveSync(lock);
  let ino = successorDir(lock);
  lockrt.rmdirBoundSync(lock); // our create: the successor stays
  assert.equal(fs.lstatSync(lock).ino, ino);
  lockrt.statJudgedSync(lock);
  lockrt.rmdirBoundSync(lock); // judged: removed
  assert.deepEqual(entries(dir), []);
  fs.mkdirSync(lock);
  lockrt.statJudgedSync(lock);
  ino = successorDir(lock);
  lockrt.rmdirBoundSync(lock);
  assert.equal(fs.lstatSync(lock).ino, ino);
  fs.rmdirSync(lock);
  assert.equal(errorOf(() => lockrt.rmdirBoundSync(path.join(dir, 'never'))).code, 'ENOENT');
});

// The successor slips in between the drop-in's last look and its rename
// aside: fs.renameSync is wrapped so that, on the rename into quarantine, the
// lock is first broken and made again by "another process".
function swapBeforeQuarantine(lock, owner) {
  const real = fs.renameSync;
  let ino = null;
  fs.renameSync = (from, to) => {
    if (ino === null && String(to).includes('.lockrt-release.')) ino = successorDir(lock, owner);
    return real(from, to);
  };
  return { restore: () => { fs.renameSync = real; }, ino: () => ino };
}

test('a successor renamed aside in the race is put back, same inode, nothing left aside', { skip: !linux }, () => {
  const dir = scratch();
  for (const [name, owner, release] of [
    ['j.lock', undefined, (l) => lockrt.rmdirOwnedSync(l)],
    ['k.lock', 'B', (l) => lockrt.rmOwnedSync(l, { recursive: true, force: true })],
  ]) {
    const lock = path.join(dir, name);
    lockrt.mkdirExclusiveSync(lock);
    const swap = swapBeforeQuarantine(lock, owner);
    try {
      release(lock);
    } finally {
      swap.restore();
    }
    assert.ok(swap.ino() !== null);
    assert.equal(fs.lstatSync(lock).ino, swap.ino());
    if (owner !== undefined) assert.equal(fs.readFileSync(path.join(lock, 'owner'), 'utf8'), owner);
  }
  // a judged takeover too
  const lock = path.join(dir, 'l.lock');
  fs.mkdirSync(lock);
  lockrt.statJudgedSync(lock);
  const swap = swapBeforeQuarantine(lock);
  try {
    lockrt.rmdirJudgedSync(lock);
  } finally {
    swap.restore();
  }
  assert.equal(fs.lstatSync(lock).ino, swap.ino());
  assert.deepEqual(entries(dir), ['j.lock', 'k.lock', 'l.lock']);
});
