'use strict';
// The vendored pure-JS lockrt.cjs (what the LF301 fix copies next to a
// module), run with `node --test`: creates keep flags, bytes and mode; the
// release removes only the inode this process created; a successor's lock is
// left byte for byte; a symlink at the path is not followed; a missing file
// is reported, never taken for a release.
const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const lockrt = require('../lockrt.cjs');

function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockrt-vendor-'));
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

test('writeFileExclusiveSync writes what writeFileSync would, and fails like it', () => {
  const dir = scratch();
  const file = path.join(dir, 'a.lock');
  const umask = process.umask();
  lockrt.writeFileExclusiveSync(file, '1234\n', { flag: 'wx', mode: 0o640 });
  assert.equal(fs.readFileSync(file, 'utf8'), '1234\n');
  assert.equal(fs.statSync(file).mode & 0o777, 0o640 & ~umask);
  assert.throws(() => lockrt.writeFileExclusiveSync(file, 'x', { flag: 'wx' }), { code: 'EEXIST', syscall: 'open' });
  assert.equal(fs.readFileSync(file, 'utf8'), '1234\n');
  assert.equal(lockrt.releaseIfOwnedSync(file), 'released');
  assert.deepEqual(entries(dir), []);
});

test('an owned lock is released even after its holder rewrote it', async () => {
  const dir = scratch();
  const file = path.join(dir, 'b.lock');
  await lockrt.writeFileExclusive(file, Buffer.from('pid 1\n'), { flag: 'wx' });
  fs.writeFileSync(file, 'pid 1, refreshed\n'); // same inode (O_TRUNC)
  fs.utimesSync(file, new Date(0), new Date(0));
  assert.equal(await lockrt.releaseIfOwned(file), 'released');
  assert.deepEqual(entries(dir), []);
});

test('openExclusiveSync returns the descriptor and remembers the inode', () => {
  const dir = scratch();
  const file = path.join(dir, 'c.lock');
  const fd = lockrt.openExclusiveSync(file, 'wx');
  fs.writeSync(fd, String(process.pid));
  fs.closeSync(fd);
  assert.equal(fs.readFileSync(file, 'utf8'), String(process.pid));
  lockrt.unlinkOwnedSync(file);
  assert.deepEqual(entries(dir), []);
});

test('openExclusive resolves to the FileHandle and remembers the inode', async () => {
  const dir = scratch();
  const file = path.join(dir, 'c2.lock');
  const fh = await lockrt.openExclusive(file, 'wx', 0o600);
  await fh.writeFile(String(process.pid));
  await fh.close();
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  await assert.rejects(lockrt.openExclusive(file, 'wx'), { code: 'EEXIST' });
  // a successor's lock at the path (ours was broken and replaced) is left
  fs.unlinkSync(file);
  fs.writeFileSync(file, 'successor', { flag: 'wx' });
  await lockrt.unlinkOwned(file);
  assert.equal(fs.readFileSync(file, 'utf8'), 'successor');
});

test("a successor's lock is left byte for byte", () => {
  const dir = scratch();
  const file = path.join(dir, 'd.lock');
  lockrt.writeFileExclusiveSync(file, 'holder A', { flag: 'wx' });
  // B judges it stale, removes it by name and takes the lock
  fs.unlinkSync(file);
  const successor = Buffer.from('{"pid":424242,"token":"b"}\n');
  fs.writeFileSync(file, successor, { flag: 'wx', mode: 0o600 });
  const before = fs.lstatSync(file);
  assert.equal(lockrt.releaseIfOwnedSync(file), 'not-owned');
  const after = fs.lstatSync(file);
  assert.deepEqual(fs.readFileSync(file), successor);
  assert.equal(after.ino, before.ino);
  assert.equal(after.mtimeMs, before.mtimeMs);
  assert.equal(after.mode, before.mode);
  assert.deepEqual(entries(dir), ['d.lock']); // no quarantine left behind
  // the drop-ins leave it too, and say nothing
  lockrt.writeFileExclusiveSync(path.join(dir, 'e.lock'), 'A', { flag: 'wx' });
  fs.unlinkSync(path.join(dir, 'e.lock'));
  fs.writeFileSync(path.join(dir, 'e.lock'), 'B', { flag: 'wx' });
  assert.equal(lockrt.rmOwnedSync(path.join(dir, 'e.lock'), { force: true }), undefined);
  assert.equal(fs.readFileSync(path.join(dir, 'e.lock'), 'utf8'), 'B');
});

test('a symlink at the lock path is not followed', () => {
  const dir = scratch();
  const file = path.join(dir, 'f.lock');
  lockrt.writeFileExclusiveSync(file, 'mine', { flag: 'wx' });
  // our own lock moved aside, a link to it put at the path
  fs.renameSync(file, path.join(dir, 'moved'));
  fs.symlinkSync('moved', file);
  assert.equal(lockrt.releaseIfOwnedSync(file), 'not-owned');
  assert.ok(fs.lstatSync(file).isSymbolicLink());
  assert.equal(fs.readFileSync(path.join(dir, 'moved'), 'utf8'), 'mine');
  assert.deepEqual(entries(dir), ['f.lock', 'moved']);
  // a create never follows one either (O_EXCL)
  assert.throws(() => lockrt.writeFileExclusiveSync(file, 'x', { flag: 'wx' }), { code: 'EEXIST' });
  assert.equal(fs.readFileSync(path.join(dir, 'moved'), 'utf8'), 'mine');
});

test('a missing file is reported, not taken for a release', async () => {
  const dir = scratch();
  const file = path.join(dir, 'g.lock');
  lockrt.writeFileExclusiveSync(file, 'A', { flag: 'wx' });
  fs.unlinkSync(file);
  assert.equal(lockrt.releaseIfOwnedSync(file), 'missing');
  lockrt.writeFileExclusiveSync(file, 'A', { flag: 'wx' });
  fs.unlinkSync(file);
  assert.throws(() => lockrt.unlinkOwnedSync(file), { code: 'ENOENT', syscall: 'unlink' });
  lockrt.writeFileExclusiveSync(file, 'A', { flag: 'wx' });
  fs.unlinkSync(file);
  await assert.rejects(lockrt.rmOwned(file), { code: 'ENOENT' });
  lockrt.writeFileExclusiveSync(file, 'A', { flag: 'wx' });
  fs.unlinkSync(file);
  assert.equal(lockrt.rmOwnedSync(file, { force: true }), undefined); // as rmSync with force
});

test('a path this process created nothing at: the strict release refuses, the drop-ins remove by name as before', () => {
  const dir = scratch();
  const file = path.join(dir, 'h.lock');
  fs.writeFileSync(file, 'someone', { flag: 'wx' });
  assert.equal(lockrt.releaseIfOwnedSync(file), 'unknown');
  assert.equal(fs.readFileSync(file, 'utf8'), 'someone');
  lockrt.unlinkOwnedSync(file);
  assert.deepEqual(entries(dir), []);
  assert.throws(() => lockrt.unlinkOwnedSync(file), { code: 'ENOENT' });
});

test('a lock released once is forgotten: a second release is unknown', () => {
  const dir = scratch();
  const file = path.join(dir, 'i.lock');
  lockrt.writeFileExclusiveSync(file, 'A', { flag: 'wx' });
  assert.equal(lockrt.releaseIfOwnedSync(file), 'released');
  fs.writeFileSync(file, 'B', { flag: 'wx' });
  assert.equal(lockrt.releaseIfOwnedSync(file), 'unknown');
  assert.equal(fs.readFileSync(file, 'utf8'), 'B');
});

test('a relative path is the same lock after the release resolves it', () => {
  const dir = scratch();
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    lockrt.writeFileExclusiveSync('j.lock', 'A', { flag: 'wx' });
    assert.equal(lockrt.releaseIfOwnedSync(path.join(dir, 'j.lock')), 'released');
  } finally {
    process.chdir(cwd);
  }
  assert.deepEqual(entries(dir), []);
});

// The race the quarantine guards: the path still named our inode when it was
// checked, and a successor's file is there when the rename happens.
function withRenameHook(hook, body) {
  const rename = fs.renameSync;
  fs.renameSync = (from, to) => {
    fs.renameSync = rename;
    hook(from, to);
    return rename(from, to);
  };
  try {
    return body();
  } finally {
    fs.renameSync = rename;
  }
}

test('a file swapped in just before the quarantine rename is put back, byte for byte', () => {
  const dir = scratch();
  const file = path.join(dir, 'k.lock');
  lockrt.writeFileExclusiveSync(file, 'A', { flag: 'wx' });
  const successor = Buffer.from('successor\n');
  let ino = null;
  const r = withRenameHook(() => {
    fs.unlinkSync(file);
    fs.writeFileSync(file, successor, { flag: 'wx' });
    ino = fs.statSync(file).ino;
  }, () => lockrt.releaseIfOwnedSync(file));
  assert.equal(r, 'not-owned');
  assert.deepEqual(fs.readFileSync(file), successor);
  assert.equal(fs.statSync(file).ino, ino);
  assert.deepEqual(entries(dir), ['k.lock']);
});

test('when the path is taken again before the put-back, the quarantined file is kept, never deleted', () => {
  const dir = scratch();
  const file = path.join(dir, 'l.lock');
  lockrt.writeFileExclusiveSync(file, 'A', { flag: 'wx' });
  const link = fs.linkSync;
  const r = withRenameHook(() => {
    fs.unlinkSync(file);
    fs.writeFileSync(file, 'B', { flag: 'wx' });
    fs.linkSync = (from, to) => {
      fs.linkSync = link;
      fs.writeFileSync(to, 'C', { flag: 'wx' }); // a third process creates the lock first
      return link(from, to);
    };
  }, () => lockrt.releaseIfOwnedSync(file));
  fs.linkSync = link;
  assert.equal(r, 'not-owned');
  assert.equal(fs.readFileSync(file, 'utf8'), 'C');
  const kept = entries(dir).filter((f) => f !== 'l.lock');
  assert.equal(kept.length, 1);
  assert.match(kept[0], /^\.l\.lock\.lockrt-release\./);
  assert.equal(fs.readFileSync(path.join(dir, kept[0]), 'utf8'), 'B');
});

test('holderAliveSync: the live process that wrote the lock, and nothing else', { skip: process.platform !== 'linux' }, () => {
  const dir = scratch();
  const file = path.join(dir, 'h.lock');
  fs.writeFileSync(file, String(process.pid));
  assert.equal(lockrt.holderAliveSync(file), true);
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, at: Date.now() }));
  assert.equal(lockrt.holderAliveSync(file), true);
  fs.writeFileSync(file, `${process.pid}:token`);
  assert.equal(lockrt.holderAliveSync(file), true);
  // written before this process started: another process under a reused pid
  fs.writeFileSync(file, String(process.pid));
  fs.utimesSync(file, new Date(0), new Date(0));
  assert.equal(lockrt.holderAliveSync(file), false);
  // another host, no pid, not a pid, a number too large, nothing there, a directory
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, hostname: os.hostname() + '-other' }));
  assert.equal(lockrt.holderAliveSync(file), false);
  for (const text of ['', 'locked', '1', '1.5', String(Date.now()), '{"pid":"x"}', '{broken'])
  {
    fs.writeFileSync(file, text);
    assert.equal(lockrt.holderAliveSync(file), false, text);
  }
  fs.unlinkSync(file);
  assert.equal(lockrt.holderAliveSync(file), false);
  assert.equal(lockrt.holderAliveSync(dir), false);
});

test('killProbeSync: process.kill(pid, 0), and ESRCH for a pid reused since the file was written', { skip: process.platform !== 'linux' }, () => {
  const dir = scratch();
  const file = path.join(dir, 'p.pid');
  fs.writeFileSync(file, String(process.pid));
  assert.equal(lockrt.killProbeSync(process.pid, file), true);
  fs.utimesSync(file, new Date(0), new Date(0));
  assert.throws(() => lockrt.killProbeSync(process.pid, file), { code: 'ESRCH', syscall: 'kill' });
  assert.throws(() => lockrt.killProbeSync(2 ** 22 + 1, file), { code: 'ESRCH' });
  assert.equal(lockrt.killProbeSync(process.pid, path.join(dir, 'missing')), true);
});

test('on Windows a create keeps no descriptor open, and its release is still bound', { skip: process.platform !== 'linux' }, () => {
  // process.platform stands in for Windows (read at each call); /proc counts descriptors
  const dir = scratch();
  const file = path.join(dir, 'w.lock');
  const fds = () => fs.readdirSync('/proc/self/fd').length;
  const real = Object.getOwnPropertyDescriptor(process, 'platform');
  Object.defineProperty(process, 'platform', { value: 'win32' });
  let before, after;
  try {
    before = fds();
    lockrt.writeFileExclusiveSync(file, 'A', { flag: 'wx' });
    after = fds();
  } finally {
    Object.defineProperty(process, 'platform', real);
  }
  assert.equal(after, before);
  // a successor's lock (another inode) is left; our own is released. A link
  // elsewhere keeps our inode allocated, as NTFS keeps a file id from being
  // handed out again (Linux would reuse the freed number at once: the pin)
  fs.linkSync(file, path.join(dir, 'keep'));
  fs.unlinkSync(file);
  fs.writeFileSync(file, 'B', { flag: 'wx' });
  assert.equal(lockrt.releaseIfOwnedSync(file), 'not-owned');
  assert.equal(fs.readFileSync(file, 'utf8'), 'B');
  fs.unlinkSync(file);
  fs.unlinkSync(path.join(dir, 'keep'));
  Object.defineProperty(process, 'platform', { value: 'win32' });
  try {
    lockrt.writeFileExclusiveSync(file, 'A', { flag: 'wx' });
  } finally {
    Object.defineProperty(process, 'platform', real);
  }
  assert.equal(lockrt.releaseIfOwnedSync(file), 'released');
  assert.deepEqual(entries(dir), []);
  // and on Linux the pin is there
  before = fds();
  lockrt.writeFileExclusiveSync(file, 'A', { flag: 'wx' });
  assert.equal(fds(), before + 1);
  lockrt.releaseIfOwnedSync(file);
  assert.equal(fds(), before);
});
