'use strict';
// The judgement and removal drop-ins of the vendored lockrt.cjs (LF301's
// takeover fix), run with `node --test`: a judgement returns what the fs call
// returns and fails as it fails; the removal removes the path only while it
// is the object judged, leaves a successor's (or a refreshed) lock byte for
// byte, reports a missing file as fs does, and removes by name what was never
// judged.
const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const lockrt = require('../lockrt.cjs');

function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockrt-judged-'));
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
    return { name: e.name, message: e.message, code: e.code, errno: e.errno, syscall: e.syscall, path: e.path };
  }
  return null;
}

async function asyncErrorOf(fn) {
  try {
    await fn();
  } catch (e) {
    return { name: e.name, message: e.message, code: e.code, errno: e.errno, syscall: e.syscall, path: e.path };
  }
  return null;
}

// A successor's lock at the same path: the judged file removed and a new one
// created, as a second breaker would.
function successor(file, bytes) {
  fs.unlinkSync(file);
  fs.writeFileSync(file, bytes, { flag: 'wx' });
  return fs.statSync(file).ino;
}

test('readFileJudgedSync returns what readFileSync returns, and fails as it fails', () => {
  const dir = scratch();
  const file = path.join(dir, 'a.lock');
  fs.writeFileSync(file, '{"pid":12}\n');
  for (const options of [undefined, 'utf8', { encoding: 'utf8' }, { encoding: 'latin1', flag: 'r' }, 'hex'])
    assert.deepEqual(lockrt.readFileJudgedSync(file, options), fs.readFileSync(file, options));
  assert.ok(Buffer.isBuffer(lockrt.readFileJudgedSync(file)));
  const gone = path.join(dir, 'none.lock');
  assert.deepEqual(errorOf(() => lockrt.readFileJudgedSync(gone, 'utf8')), errorOf(() => fs.readFileSync(gone, 'utf8')));
  assert.deepEqual(errorOf(() => lockrt.readFileJudgedSync(dir)), errorOf(() => fs.readFileSync(dir)));
  assert.equal(errorOf(() => lockrt.readFileJudgedSync(gone)).code, 'ENOENT');
});

test('the stat judgements return what fs returns, and fail as it fails', async () => {
  const dir = scratch();
  const file = path.join(dir, 'b.lock');
  fs.writeFileSync(file, '1');
  const fields = (st) => [st.dev, st.ino, st.size, st.mode, st.mtimeMs, st.ctimeMs, st.isFile(), st.constructor.name];
  assert.deepEqual(fields(lockrt.statJudgedSync(file)), fields(fs.statSync(file)));
  assert.deepEqual(fields(lockrt.lstatJudgedSync(file)), fields(fs.lstatSync(file)));
  assert.deepEqual(fields(lockrt.statJudgedSync(file, { bigint: true })), fields(fs.statSync(file, { bigint: true })));
  assert.deepEqual(fields(await lockrt.statJudged(file)), fields(await fs.promises.stat(file)));
  assert.deepEqual(fields(await lockrt.lstatJudged(file)), fields(await fs.promises.lstat(file)));
  const gone = path.join(dir, 'none');
  assert.equal(lockrt.statJudgedSync(gone, { throwIfNoEntry: false }), undefined);
  assert.deepEqual(errorOf(() => lockrt.statJudgedSync(gone)), errorOf(() => fs.statSync(gone)));
  assert.deepEqual(await asyncErrorOf(() => lockrt.statJudged(gone)), await asyncErrorOf(() => fs.promises.stat(gone)));
  assert.deepEqual(await asyncErrorOf(() => lockrt.readFileJudged(gone)),
    await asyncErrorOf(() => fs.promises.readFile(gone)));
  assert.equal(await lockrt.readFileJudged(file, 'utf8'), '1');
});

test('the lock judged is removed, with nothing left beside it', () => {
  for (const judge of [(f) => lockrt.statJudgedSync(f), (f) => lockrt.readFileJudgedSync(f, 'utf8'),
    (f) => lockrt.lstatJudgedSync(f, { bigint: true })]) {
    const dir = scratch();
    const file = path.join(dir, 'c.lock');
    fs.writeFileSync(file, '99999\n');
    judge(file);
    assert.equal(lockrt.unlinkJudgedSync(file), undefined);
    assert.deepEqual(entries(dir), []);
  }
});

test("a successor's lock, created after the judgement, is left byte for byte", () => {
  for (const [judge, remove] of [
    [(f) => lockrt.statJudgedSync(f), (f) => lockrt.unlinkJudgedSync(f)],
    [(f) => lockrt.readFileJudgedSync(f), (f) => lockrt.rmJudgedSync(f, { force: true })],
  ]) {
    const dir = scratch();
    const file = path.join(dir, 'd.lock');
    fs.writeFileSync(file, 'stale 1\n');
    judge(file);
    const ino = successor(file, 'live 2\n');
    assert.equal(remove(file), undefined); // as if removed: the module's create then fails with EEXIST
    assert.equal(fs.readFileSync(file, 'utf8'), 'live 2\n');
    assert.equal(fs.statSync(file).ino, ino);
    assert.deepEqual(entries(dir), ['d.lock']);
    assert.throws(() => fs.writeFileSync(file, 'me', { flag: 'wx' }), { code: 'EEXIST' });
  }
});

test('a lock its holder refreshed or rewrote after the judgement is left in place', () => {
  const dir = scratch();
  const file = path.join(dir, 'e.lock');
  fs.writeFileSync(file, 'holder\n');
  lockrt.statJudgedSync(file);
  const later = new Date(Date.now() + 5000);
  fs.utimesSync(file, later, later); // the holder's heartbeat
  lockrt.unlinkJudgedSync(file);
  assert.equal(fs.readFileSync(file, 'utf8'), 'holder\n');
  lockrt.readFileJudgedSync(file);
  fs.writeFileSync(file, 'holder, rewritten\n'); // same inode, new bytes
  lockrt.unlinkJudgedSync(file);
  assert.equal(fs.readFileSync(file, 'utf8'), 'holder, rewritten\n');
  assert.deepEqual(entries(dir), ['e.lock']);
});

test('a lock gone since the judgement fails as fs does; rm with force does not', async () => {
  const dir = scratch();
  const file = path.join(dir, 'f.lock');
  for (const [remove, syscall] of [[() => lockrt.unlinkJudgedSync(file), 'unlink'], [() => lockrt.rmJudgedSync(file), 'rm']]) {
    fs.writeFileSync(file, 'x');
    lockrt.statJudgedSync(file);
    fs.unlinkSync(file);
    const e = errorOf(remove);
    assert.equal(e.code, 'ENOENT');
    assert.equal(e.syscall, syscall);
    assert.equal(e.path, file);
  }
  fs.writeFileSync(file, 'x');
  await lockrt.readFileJudged(file);
  fs.unlinkSync(file);
  await assert.rejects(lockrt.unlinkJudged(file), { code: 'ENOENT', syscall: 'unlink' });
  fs.writeFileSync(file, 'x');
  await lockrt.statJudged(file);
  fs.unlinkSync(file);
  assert.equal(await lockrt.rmJudged(file, { force: true }), undefined);
  assert.deepEqual(entries(dir), []);
});

test('the promise forms bind like the sync ones', async () => {
  const dir = scratch();
  const file = path.join(dir, 'g.lock');
  fs.writeFileSync(file, 'stale\n');
  await lockrt.readFileJudged(file, 'utf8');
  const ino = successor(file, 'live\n');
  await lockrt.unlinkJudged(file);
  assert.equal(fs.statSync(file).ino, ino);
  await lockrt.statJudged(file);
  await lockrt.rmJudged(file, { force: true });
  assert.deepEqual(entries(dir), []);
});

test('a path never judged here, or judged once and removed once, is removed by name as before', () => {
  const dir = scratch();
  const file = path.join(dir, 'h.lock');
  fs.writeFileSync(file, 'a');
  lockrt.unlinkJudgedSync(file);
  assert.deepEqual(entries(dir), []);
  assert.throws(() => lockrt.unlinkJudgedSync(file), { code: 'ENOENT', syscall: 'unlink' });
  fs.writeFileSync(file, 'b');
  lockrt.statJudgedSync(file);
  lockrt.unlinkJudgedSync(file);
  fs.writeFileSync(file, 'c'); // a new lock, no new judgement: the old one does not bind it
  lockrt.rmJudgedSync(file);
  assert.deepEqual(entries(dir), []);
});

test("this process's own create forgets what was judged at the path", () => {
  const dir = scratch();
  const file = path.join(dir, 'i.lock');
  fs.writeFileSync(file, 'old');
  lockrt.statJudgedSync(file);
  fs.unlinkSync(file);
  lockrt.writeFileExclusiveSync(file, 'mine', { flag: 'wx' });
  lockrt.unlinkJudgedSync(file); // nothing judged of this lock: by name
  assert.deepEqual(entries(dir), []);
});

test('a symlink at the lock path binds the link: removed while it is that link, its target kept', () => {
  const dir = scratch();
  const target = path.join(dir, 'target');
  const file = path.join(dir, 'j.lock');
  fs.writeFileSync(target, '42');
  fs.symlinkSync(target, file);
  assert.equal(lockrt.readFileJudgedSync(file, 'utf8'), '42');
  lockrt.unlinkJudgedSync(file);
  assert.deepEqual(entries(dir), ['target']);
  fs.symlinkSync(target, file);
  lockrt.statJudgedSync(file);
  fs.unlinkSync(file);
  fs.symlinkSync(target, file); // another link: not what was judged
  lockrt.unlinkJudgedSync(file);
  assert.deepEqual(entries(dir), ['j.lock', 'target']);
});

test('a lock gone between the judgement and its record binds nothing at the path', () => {
  // the judged file removed (a faster breaker) before the judgement's own
  // lstat; a successor's lock created after: never removed
  const dir = scratch();
  const file = path.join(dir, 'n.lock');
  fs.writeFileSync(file, 'stale');
  const realLstat = fs.lstatSync;
  let once = true;
  fs.lstatSync = function (p, o) {
    if (once && p === file) {
      once = false;
      fs.unlinkSync(file);
    }
    return realLstat.call(fs, p, o);
  };
  try {
    lockrt.statJudgedSync(file);
  } finally {
    fs.lstatSync = realLstat;
  }
  fs.writeFileSync(file, 'live', { flag: 'wx' });
  lockrt.unlinkJudgedSync(file);
  assert.equal(fs.readFileSync(file, 'utf8'), 'live');
});

test('a relative path and its resolved form are the same judged lock', () => {
  const dir = scratch();
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    fs.writeFileSync('k.lock', 'stale');
    lockrt.statJudgedSync('k.lock');
    const ino = successor('k.lock', 'live');
    lockrt.unlinkJudgedSync(path.join(dir, 'k.lock'));
    assert.equal(fs.statSync('k.lock').ino, ino);
  } finally {
    process.chdir(cwd);
  }
});

test('a lock directory judged and removed recursively; a successor directory is kept', () => {
  const dir = scratch();
  const lock = path.join(dir, 'l.lock');
  fs.mkdirSync(lock);
  fs.writeFileSync(path.join(lock, 'owner'), '1');
  lockrt.statJudgedSync(lock);
  lockrt.rmJudgedSync(lock, { recursive: true, force: true });
  assert.deepEqual(entries(dir), []);
  fs.mkdirSync(lock);
  lockrt.statJudgedSync(lock);
  fs.rmSync(lock, { recursive: true });
  fs.mkdirSync(lock);
  fs.writeFileSync(path.join(lock, 'owner'), '2');
  lockrt.rmJudgedSync(lock, { recursive: true, force: true });
  assert.equal(fs.readFileSync(path.join(lock, 'owner'), 'utf8'), '2');
  lockrt.statJudgedSync(lock);
  assert.throws(() => lockrt.unlinkJudgedSync(lock), (e) => e.code === 'EISDIR' || e.code === 'EPERM');
  assert.deepEqual(entries(dir), ['l.lock']);
});

test('judging many paths keeps at most 64 descriptors open', () => {
  const dir = scratch();
  const fds = () => fs.readdirSync('/proc/self/fd').length;
  if (process.platform !== 'linux') return;
  const before = fds();
  for (let i = 0; i < 200; i++) {
    const f = path.join(dir, `m${i}.lock`);
    fs.writeFileSync(f, String(i));
    lockrt.statJudgedSync(f);
  }
  assert.ok(fds() - before <= 64, `${fds() - before} descriptors kept`);
  for (let i = 0; i < 200; i++) lockrt.unlinkJudgedSync(path.join(dir, `m${i}.lock`));
  assert.deepEqual(entries(dir), []);
  assert.ok(fds() - before <= 0);
});

test("breakers take turns: while another live breaker holds the breakers' lock, nothing is removed", () => {
  const dir = scratch();
  const file = path.join(dir, 'o.lock');
  fs.writeFileSync(file, 'stale');
  lockrt.statJudgedSync(file);
  // a live breaker (this very process, by its owner record) in the middle of its check
  const record = `{"pid":${process.pid},"start_time":0,"host":"${os.hostname()}","token":"${'0'.repeat(32)}"}\n`;
  const breakers = path.join(dir, '.o.lock.lockrt-break');
  fs.writeFileSync(breakers, record);
  const t0 = Date.now();
  lockrt.unlinkJudgedSync(file); // waits its turn (2 s), then gives up: as if removed
  assert.ok(Date.now() - t0 >= 1900);
  assert.equal(fs.readFileSync(file, 'utf8'), 'stale');
  fs.unlinkSync(breakers);
  lockrt.statJudgedSync(file);
  lockrt.unlinkJudgedSync(file);
  assert.deepEqual(entries(dir), []);
});

// ---- the bound drop-ins: one helper removing for both a release and a takeover ----

test('unlinkBoundSync: after a judgement, removes only the object judged', () => {
  const dir = scratch();
  const file = path.join(dir, 'a.lock');
  fs.writeFileSync(file, '{"pid":1}\n', { flag: 'wx' });
  lockrt.statJudgedSync(file);
  const ino = successor(file, 'successor');
  lockrt.unlinkBoundSync(file); // the judged lock is gone: the successor's stays
  assert.equal(fs.statSync(file).ino, ino);
  assert.equal(fs.readFileSync(file, 'utf8'), 'successor');
  lockrt.statJudgedSync(file);
  lockrt.unlinkBoundSync(file); // judged and unchanged: removed
  assert.deepEqual(entries(dir).filter((n) => !n.startsWith('.')), []);
});

test('unlinkBoundSync: after this process created the lock, removes only that inode', () => {
  const dir = scratch();
  const file = path.join(dir, 'a.lock');
  fs.writeFileSync(file, 'old', { flag: 'wx' });
  lockrt.readFileJudgedSync(file); // a judgement first (a breaker's look) ...
  fs.unlinkSync(file);
  lockrt.writeFileExclusiveSync(file, String(process.pid), { flag: 'wx' }); // the create forgets the judgement
  const ino = successor(file, 'successor');
  lockrt.unlinkBoundSync(file); // a holder paused past a takeover: its successor's lock stays
  assert.equal(fs.statSync(file).ino, ino);
  lockrt.writeFileExclusiveSync(path.join(dir, 'b.lock'), 'x', { flag: 'wx' });
  lockrt.unlinkBoundSync(path.join(dir, 'b.lock')); // its own: removed
  assert.ok(!fs.existsSync(path.join(dir, 'b.lock')));
});

test('unlinkBoundSync / rmBoundSync / promise forms: by name when nothing was judged or created, errors as fs', async () => {
  const dir = scratch();
  const file = path.join(dir, 'a.lock');
  fs.writeFileSync(file, 'x');
  lockrt.unlinkBoundSync(file);
  assert.ok(!fs.existsSync(file));
  assert.deepEqual(errorOf(() => lockrt.unlinkBoundSync(file)), errorOf(() => fs.unlinkSync(file)));
  lockrt.rmBoundSync(file, { force: true });
  assert.deepEqual(errorOf(() => lockrt.rmBoundSync(file)), errorOf(() => fs.rmSync(file)));
  fs.writeFileSync(file, 'x');
  await lockrt.unlinkBound(file);
  assert.ok(!fs.existsSync(file));
  assert.deepEqual(await asyncErrorOf(() => lockrt.unlinkBound(file)), await asyncErrorOf(() => fs.promises.unlink(file)));
  fs.writeFileSync(file, 'x');
  await lockrt.rmBound(file);
  assert.ok(!fs.existsSync(file));
});
