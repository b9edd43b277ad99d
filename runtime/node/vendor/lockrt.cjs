'use strict';
// lockrt (vendored, pure JavaScript): identity-bound release of an
// exclusively created lock file or lock directory (mkdir). Copied next to a module by `lockfix fix`
// (LF301, and LF104's exclusive lock: acquireLockSync / acquireLock below;
// the protocol swap: takeLockSync / takeLock, takeLockDirSync / takeLockDir);
// needs no addon. One CommonJS file so ESM and CommonJS modules,
// .js/.mjs/.cjs/.ts alike, can import it (`import { x } from "./lockrt.cjs"`).
//
// The module keeps creating its lock exactly as before (same flags, mode and
// bytes), through writeFileExclusiveSync / writeFileExclusive /
// openExclusiveSync, openExclusive, which also remember which inode the create made: a
// read-only descriptor on it ("pin"), opened by name right after the create
// and kept only when fstat shows the same (dev, ino) as the creating
// descriptor. A pinned inode cannot be freed, so its (dev, ino) cannot be
// reused: while the pin is open, a file at the path with that (dev, ino) is
// provably the one this process created, whatever was written into it since.
//
// The release (releaseIfOwnedSync) removes the path only when it still names
// that inode: lstat (never follows a symlink) and compare; on a match,
// rename to a unique quarantine name in the same directory, verify the
// quarantined object again, unlink it; if something else was renamed in the
// meantime, put it back with link()+unlink(), which never replaces a file
// that appeared at the path since (a directory: see putBack). A successor's
// lock (another inode) is never renamed or touched: its bytes stay as its
// owner wrote them.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { fileURLToPath } = require('url');

const O_NOFOLLOW = fs.constants.O_NOFOLLOW || 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK || 0;

/** resolved path -> { dev, ino, pin } (bigints; pin: fd or null) */
const held = new Map();

function forget(key) {
  const rec = held.get(key);
  if (!rec) return;
  held.delete(key);
  if (rec.pin !== null) {
    try { fs.closeSync(rec.pin); } catch { /* already closed */ }
  }
}

function sameObject(st, rec) {
  return st.dev === rec.dev && st.ino === rec.ino;
}

// Remember what the create behind descriptor `fd` made at `file`.
function remember(file, fd) {
  const key = path.resolve(file);
  forget(key); // a path created again replaces what was known of it
  unjudge(key); // and what was judged there: this process made what is there now
  const made = fs.fstatSync(fd, { bigint: true });
  // Windows: no pin. NTFS file ids (an MFT record and its sequence number)
  // are not handed out again after a delete, so (dev, ino) is proof enough,
  // as in the Python binding; and an open handle would leave a file deleted
  // by name "delete pending", keeping the directory around it from being
  // removed (a lock directory holding its owner file).
  if (process.platform === 'win32') {
    held.set(key, { dev: made.dev, ino: made.ino, pin: null, stableIds: true });
    return;
  }
  let pin = null;
  try {
    pin = fs.openSync(file, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (!sameObject(fs.fstatSync(pin, { bigint: true }), made)) {
      fs.closeSync(pin); // replaced in between: what is there is not ours
      pin = null;
    }
  } catch {
    if (pin !== null) fs.closeSync(pin);
    pin = null;
  }
  held.set(key, { dev: made.dev, ino: made.ino, pin });
}

// remember(), never failing the create it follows: a create whose inode could
// not be read is not remembered, and its release removes by name as before.
function tryRemember(file, fd) {
  try {
    remember(file instanceof URL ? fileURLToPath(file) : String(file), fd);
  } catch { /* not remembered */ }
}

function flagOf(options) {
  return options && typeof options === 'object' && options.flag !== undefined ? options.flag : 'w';
}

function modeOf(options) {
  return options && typeof options === 'object' && options.mode !== undefined ? options.mode : 0o666;
}

function encodingOf(options) {
  if (typeof options === 'string') return options;
  return options && typeof options === 'object' && options.encoding ? options.encoding : 'utf8';
}

/** fs.writeFileSync(file, data, options) for an exclusive flag ("wx"...):
 * the same open, bytes and mode, and the created inode remembered. */
function writeFileExclusiveSync(file, data, options) {
  if (typeof file !== 'string' && !(file instanceof URL) && !Buffer.isBuffer(file))
    return fs.writeFileSync(file, data, options); // a descriptor: nothing is created
  const fd = fs.openSync(file, flagOf(options), modeOf(options));
  try {
    fs.writeFileSync(fd, data, { encoding: encodingOf(options) });
    if (options && typeof options === 'object' && options.flush) fs.fsyncSync(fd);
    tryRemember(file, fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** fs.promises.writeFile(file, data, options) for an exclusive flag. */
async function writeFileExclusive(file, data, options) {
  if (typeof file !== 'string' && !(file instanceof URL) && !Buffer.isBuffer(file))
    return fs.promises.writeFile(file, data, options);
  const fh = await fs.promises.open(file, flagOf(options), modeOf(options));
  try {
    await fh.writeFile(data, { encoding: encodingOf(options) });
    if (options && typeof options === 'object' && options.flush) await fh.sync();
    tryRemember(file, fh.fd);
  } finally {
    await fh.close();
  }
}

/** fs.openSync(file, flags, mode) for an exclusive flag: the same descriptor,
 * the created inode remembered. */
function openExclusiveSync(file, flags, mode) {
  const fd = fs.openSync(file, flags, mode);
  tryRemember(file, fd);
  return fd;
}

/** fs.promises.open(file, flags, mode) for an exclusive flag: the same
 * FileHandle, the created inode remembered. */
async function openExclusive(file, flags, mode) {
  const fh = await fs.promises.open(file, flags, mode);
  if (typeof file === 'string' || file instanceof URL || Buffer.isBuffer(file)) tryRemember(file, fh.fd);
  return fh;
}

// A lock directory (`mkdir` without `recursive`: EEXIST is the "held"
// answer). There is no creating descriptor: the directory is opened by name
// right after the mkdir and that descriptor is the pin, so what is
// remembered is what the path named a system call after the create. Only a
// breaker that removes a directory made a moment ago could slip another one
// in between, and such a module already deletes live locks as written. Where
// a directory cannot be opened (Windows), nothing is remembered and the
// release removes by name, as before.
const O_DIRECTORY = fs.constants.O_DIRECTORY;

function rememberDir(file) {
  if (O_DIRECTORY === undefined || process.platform === 'win32') return;
  try {
    const p = file instanceof URL ? fileURLToPath(file) : String(file);
    const pin = fs.openSync(p, fs.constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    let st;
    try {
      st = fs.fstatSync(pin, { bigint: true });
    } catch (e) {
      fs.closeSync(pin);
      throw e;
    }
    const key = path.resolve(p);
    forget(key);
    unjudge(key);
    held.set(key, { dev: st.dev, ino: st.ino, pin });
  } catch { /* not remembered: the release removes by name */ }
}

function madeByPath(file, options) {
  const recursive = options && typeof options === 'object' && options.recursive;
  return !recursive && (typeof file === 'string' || file instanceof URL || Buffer.isBuffer(file));
}

/** fs.mkdirSync(dir, options) for a lock directory: the same directory and
 * errors, what it made remembered. */
function mkdirExclusiveSync(dir, options) {
  const r = fs.mkdirSync(dir, options);
  if (madeByPath(dir, options)) rememberDir(dir);
  return r;
}

/** fs.promises.mkdir(dir, options) for a lock directory. */
async function mkdirExclusive(dir, options) {
  const r = await fs.promises.mkdir(dir, options);
  if (madeByPath(dir, options)) rememberDir(dir);
  return r;
}

function quarantineName(file) {
  const dir = path.dirname(file);
  return path.join(dir, `.${path.basename(file)}.lockrt-release.${process.pid}.${crypto.randomBytes(8).toString('hex')}`);
}

// Put a quarantined object back at `file` without replacing anything there.
// A file goes back with link(), which fails on anything at the path. link()
// refuses directories and rename() silently replaces an empty one, so a
// directory goes back by rename only while nothing is at the path: a
// newcomer's empty lock directory made in the microseconds between the two
// calls would be replaced (its maker and the restored holder would then both
// hold); one with its owner record inside makes rename fail (ENOTEMPTY).
// Leaving the directory aside would be worse: its holder would surely lose
// the lock to the next mkdir.
function putBack(q, file, st) {
  try {
    if (st && st.isDirectory()) {
      if (lstatOrNull(file) === null) fs.renameSync(q, file);
      return;
    }
    fs.linkSync(q, file);
    fs.unlinkSync(q);
  } catch {
    // something appeared at the path meanwhile (or link is refused): the
    // object stays under its quarantine name, never deleted
  }
}

function lstatOrNull(p) {
  try {
    return fs.lstatSync(p);
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw e;
  }
}

// How a drop-in removes: 'unlink' and 'rm' (files; rm's recursive option
// makes it 'recursive'), 'rmdir' (an empty directory), 'recursive' (a file or
// a whole directory), 'any' (releaseIfOwnedSync: a file, or an empty
// directory). Does the fs call refuse the object `st` at `p` (a directory to
// unlink, a file or a non-empty directory to rmdir)? Then the drop-in leaves
// the call to fs, which fails as it always did, touching nothing.
function refuses(p, st, how) {
  if (st.isDirectory()) {
    if (how === 'unlink' || how === 'rm') return true;
    if (how === 'rmdir' || how === 'any') return fs.readdirSync(p).length > 0;
    return false;
  }
  return how === 'rmdir';
}

// Remove the quarantined object `q` (proved to be the one bound to).
function dispose(q, st, how) {
  if (!st.isDirectory()) fs.unlinkSync(q);
  else if (how === 'recursive') fs.rmSync(q, { recursive: true, force: true });
  else fs.rmdirSync(q); // something written into it since the check: it stays aside, never deleted
}

/**
 * Remove `file` only if it is the lock this process created there (a file,
 * or an empty directory made by mkdirExclusiveSync).
 * 'released': it was, and is gone; 'not-owned': the path names another object
 * (a successor's lock, a symlink), left as it is; 'missing': nothing there;
 * 'unknown': this process created nothing at that path it still knows of.
 */
function releaseIfOwnedSync(file) {
  return releaseOwned(file, 'any');
}

function releaseOwned(file, how) {
  const key = path.resolve(String(file));
  const rec = held.get(key);
  if (!rec) return 'unknown';
  let st;
  try {
    st = fs.lstatSync(file, { bigint: true });
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
    forget(key);
    return 'missing';
  }
  // without a pin (its open failed) the inode number may have been reused:
  // nothing proves the object is ours, so it is left
  if ((rec.pin === null && !rec.stableIds) || !sameObject(st, rec)) {
    forget(key);
    return 'not-owned';
  }
  if (refuses(key, st, how)) return 'unknown'; // still held: the fs call fails as before
  const q = quarantineName(key);
  try {
    fs.renameSync(file, q);
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
    forget(key);
    return 'missing';
  }
  let qst = null;
  try {
    qst = fs.lstatSync(q, { bigint: true });
  } catch { /* gone from under us: nothing to put back */ }
  if (qst !== null && sameObject(qst, rec)) {
    forget(key);
    dispose(q, qst, how);
    return 'released';
  }
  if (qst !== null) putBack(q, file, qst);
  forget(key);
  return 'not-owned';
}

async function releaseIfOwned(file) {
  return releaseIfOwnedSync(file); // a few metadata calls: no I/O worth a thread
}

function missing(syscall, file) {
  const e = new Error(`ENOENT: no such file or directory, ${syscall} '${file}'`);
  e.errno = -2;
  e.code = 'ENOENT';
  e.syscall = syscall;
  e.path = String(file);
  return e;
}

// Drop-in replacements for the module's removal calls. A lock this process
// created is removed only if it is still there; a successor's is left alone;
// a missing file fails as the fs call would; a path this process created
// nothing at (a release without an acquisition here) is removed by name, as
// the code did before.
function unlinkOwnedSync(file) {
  const r = releaseOwned(file, 'unlink');
  if (r === 'unknown') return fs.unlinkSync(file);
  if (r === 'missing') throw missing('unlink', file);
  return undefined;
}

function rmHow(options) {
  return options && options.recursive ? 'recursive' : 'rm';
}

function rmOwnedSync(file, options) {
  const r = releaseOwned(file, rmHow(options));
  if (r === 'unknown') return fs.rmSync(file, options);
  if (r === 'missing' && !(options && options.force)) throw missing('rm', file);
  return undefined;
}

async function unlinkOwned(file) {
  const r = releaseOwned(file, 'unlink');
  if (r === 'unknown') return fs.promises.unlink(file);
  if (r === 'missing') throw missing('unlink', file);
  return undefined;
}

async function rmOwned(file, options) {
  const r = releaseOwned(file, rmHow(options));
  if (r === 'unknown') return fs.promises.rm(file, options);
  if (r === 'missing' && !(options && options.force)) throw missing('rm', file);
  return undefined;
}

function rmdirOwnedSync(file, options) {
  const r = releaseOwned(file, 'rmdir');
  if (r === 'unknown') return fs.rmdirSync(file, options);
  if (r === 'missing') throw missing('rmdir', file);
  return undefined;
}

async function rmdirOwned(file, options) {
  const r = releaseOwned(file, 'rmdir');
  if (r === 'unknown') return fs.promises.rmdir(file, options);
  if (r === 'missing') throw missing('rmdir', file);
  return undefined;
}

// ---------------------------------------------------------------------------
// A stale takeover bound to what was judged (LF301's takeover fix). The
// module judges a lock (reads its owner record, or stats it for its age) and
// then removes it by name; a lock another process re-created in between is
// then deleted live. The judgement drop-ins return exactly what the fs call
// returns (same value, same errors) and also remember the identity of the
// object judged at that path: (dev, ino, size, mtime, ctime), and on POSIX a
// read-only descriptor on it ("pin") so that its inode cannot be freed and
// reused by a successor's lock while it is remembered. The removal drop-ins
// remove the path only while it still names that object (lstat compared;
// renamed to a unique quarantine name; the quarantined object compared again
// on what a rename leaves unchanged: dev, ino, size, mtime; then unlinked,
// else put back). Anything else there (a successor's lock, a holder's
// refreshed or rewritten lock: its mtime/ctime moved) is left as it is and
// the call returns as if it removed it: the module's next exclusive create
// fails with EEXIST and its own "lock is held" path runs. A path that was
// never judged in this process is removed by name, as before. One
// judgement binds one removal: the removal forgets it.
//
// A judgement's identity is of what the module saw: a read opens the path,
// fstats and reads that descriptor (the content judged is that object's);
// a stat is the module's own stat (statSync follows a symlink, lstatSync does
// not: each kept as written). A symlink at the path binds the link itself
// (the removal removes the link, not what was read through it).

/** resolved path -> { big, dev, ino, size, mtime, ctime, pin } */
const judged = new Map();
const MAX_PINS = 64; // a module judging many paths keeps at most this many descriptors open

function dropPin(rec) {
  if (rec.pin !== null) {
    try { fs.closeSync(rec.pin); } catch { /* already closed */ }
    rec.pin = null;
  }
}

function unjudge(key) {
  const rec = judged.get(key);
  if (!rec) return;
  judged.delete(key);
  dropPin(rec);
}

function stamp(st, big) {
  return big ? [st.mtimeNs, st.ctimeNs] : [st.mtimeMs, st.ctimeMs];
}

function identityOf(st, big) {
  const [mtime, ctime] = stamp(st, big);
  return { big, dev: st.dev, ino: st.ino, size: st.size, mtime, ctime, pin: null };
}

// Same object, unchanged since it was judged (ctime: nothing was rewritten,
// renamed, chmod'ed or touched). `renamed`: the quarantine rename itself moves
// the ctime, so only what a rename keeps is compared.
function sameJudged(st, rec, renamed) {
  const [mtime, ctime] = stamp(st, rec.big);
  return st.dev === rec.dev && st.ino === rec.ino && st.size === rec.size && mtime === rec.mtime &&
    (renamed || ctime === rec.ctime);
}

function pathOf(file) {
  if (file instanceof URL) return fileURLToPath(file);
  if (typeof file === 'string' || Buffer.isBuffer(file)) return String(file);
  return null; // a descriptor: nothing at a path was judged
}

function keep(key, rec) {
  unjudge(key);
  judged.set(key, rec);
  let pins = 0;
  for (const r of judged.values()) if (r.pin !== null) pins++;
  for (const r of judged.values()) {
    if (pins <= MAX_PINS) break;
    if (r.pin !== null) { dropPin(r); pins--; } // the oldest pins go first; their identity stays
  }
}

// Remember `rec` (the object the module judged, pin: a descriptor on it or
// null) for `file`. Never fails the judgement it follows. What is remembered
// is always what was judged, never what is at the path now: when the path is
// already gone or names another object, the removal then finds it changed
// (or missing) and removes nothing. A symlink at the path is the one
// exception: the removal removes the link, not what was read or stated
// through it, so the link itself (lstat) is what gets bound.
function judgedObject(file, rec, pin) {
  const key = path.resolve(file);
  try {
    let lst = null;
    try {
      lst = fs.lstatSync(file, { bigint: rec.big });
    } catch { /* gone since: rec stands, and binds the removal to nothing there */ }
    if (lst !== null && lst.isSymbolicLink()) {
      rec = identityOf(lst, rec.big);
    } else if (lst !== null && pin !== null && process.platform !== 'win32' && lst.dev === rec.dev &&
               lst.ino === rec.ino) {
      rec.pin = pin; // the path still names what was judged: hold its inode
      pin = null;
    }
    keep(key, rec);
  } catch {
    unjudge(key); // cannot happen short of running out of memory: judge nothing rather than something else
  } finally {
    if (pin !== null) { try { fs.closeSync(pin); } catch { /* closed */ } }
  }
}

function flagIsRead(options) {
  return !(options && typeof options === 'object' && options.flag !== undefined && options.flag !== 'r');
}

/** fs.readFileSync(file, options), remembering the object read. */
function readFileJudgedSync(file, options) {
  const p = pathOf(file);
  if (p === null || !flagIsRead(options)) return fs.readFileSync(file, options);
  const fd = fs.openSync(file, 'r'); // what readFileSync opens, failing alike
  let data, rec;
  try {
    rec = identityOf(fs.fstatSync(fd, { bigint: true }), true);
    data = fs.readFileSync(fd, options); // from offset 0 to the end, decoded alike
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
  judgedObject(p, rec, fd);
  return data;
}

/** fs.promises.readFile(file, options), remembering the object read. */
async function readFileJudged(file, options) {
  const p = pathOf(file);
  if (p === null || !flagIsRead(options)) return fs.promises.readFile(file, options);
  const fh = await fs.promises.open(file, 'r');
  let data, rec;
  try {
    rec = identityOf(await fh.stat({ bigint: true }), true);
    data = await fh.readFile(options);
  } catch (e) {
    await fh.close();
    throw e;
  }
  // The pin is a plain descriptor (closed synchronously by the removal), not
  // the FileHandle: opened by name while the handle still holds the inode
  // read, so equal (dev, ino) proves it is that object.
  let pin = null;
  try { pin = fs.openSync(p, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK); } catch { /* no pin */ }
  if (pin !== null) {
    const st = fs.fstatSync(pin, { bigint: true });
    if (st.dev !== rec.dev || st.ino !== rec.ino) { fs.closeSync(pin); pin = null; }
  }
  await fh.close();
  judgedObject(p, rec, pin);
  return data;
}

// After a stat the module made: pin the object only if the path still names
// it, unchanged (else its identity alone is remembered).
function pinFor(p, rec) {
  let pin = null;
  try {
    pin = fs.openSync(p, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (!sameJudged(fs.fstatSync(pin, { bigint: rec.big }), rec, false)) {
      fs.closeSync(pin);
      pin = null;
    }
  } catch {
    if (pin !== null) fs.closeSync(pin);
    pin = null;
  }
  return pin;
}

function judgeStat(file, options, st) {
  const p = pathOf(file);
  if (p === null || st === undefined) return st; // throwIfNoEntry: false, nothing there
  const rec = identityOf(st, !!(options && options.bigint));
  judgedObject(p, rec, pinFor(p, rec));
  return st;
}

/** fs.statSync(file, options), remembering the object stated. */
function statJudgedSync(file, options) {
  return judgeStat(file, options, fs.statSync(file, options));
}

/** fs.lstatSync(file, options), remembering the object stated. */
function lstatJudgedSync(file, options) {
  return judgeStat(file, options, fs.lstatSync(file, options));
}

/** fs.promises.stat(file, options), remembering the object stated. */
async function statJudged(file, options) {
  return judgeStat(file, options, await fs.promises.stat(file, options));
}

/** fs.promises.lstat(file, options), remembering the object stated. */
async function lstatJudged(file, options) {
  return judgeStat(file, options, await fs.promises.lstat(file, options));
}

// The check-rename-verify of a judged removal, run while the path still
// names the judged object: 'removed', 'changed', 'missing', or 'unknown' (an
// object the call does not remove, see refuses(): the fs call fails as it
// does).
function removeIfStill(p, key, rec, how) {
  let st;
  try {
    st = fs.lstatSync(p, { bigint: rec.big });
  } catch (e) {
    if (e.code === 'ENOENT') return 'missing';
    throw e;
  }
  if (!sameJudged(st, rec, false)) return 'changed';
  if (refuses(p, st, how)) return 'unknown';
  const q = quarantineName(key);
  try {
    fs.renameSync(p, q);
  } catch (e) {
    if (e.code === 'ENOENT') return 'missing';
    throw e;
  }
  let qst = null;
  try {
    qst = fs.lstatSync(q, { bigint: rec.big });
  } catch { /* gone from under us: nothing to put back */ }
  if (qst !== null && sameJudged(qst, rec, true)) {
    dispose(q, qst, how);
    return 'removed';
  }
  if (qst !== null) putBack(q, p, qst);
  return 'changed';
}

// Run `fn` while holding the breakers' lock of `key`: a sibling lock file
// taken the way acquireLockSync takes one (an owner record, reclaimed only
// from a dead owner). Every process that judged the same stale lock then
// checks and renames it in turn, so none of them can rename aside the lock a
// faster one has just let a successor create (between one's check and its
// rename, the others wait): what is left is a holder's own release racing a
// breaker's check, a window of a few system calls. Not taken in time
// (another breaker stuck alive): 'changed', nothing removed, and the module's
// create fails into its "held" path. The breakers' lock cannot be made at
// all (a read-only directory): the check runs without it, as the release
// does.
function serialized(key, fn) {
  const bl = path.join(path.dirname(key), `.${path.basename(key)}.lockrt-break`);
  const deadline = Date.now() + 2000;
  let delay = 1;
  let got = false;
  for (;;) {
    try {
      got = tryAcquire(bl);
    } catch {
      return fn();
    }
    if (got) break;
    const left = deadline - Date.now();
    if (left <= 0) return 'changed';
    Atomics.wait(napCell, 0, 0, Math.min(delay, left));
    delay = Math.min(delay * 2, 20);
  }
  try {
    return fn();
  } finally {
    try { releaseIfOwnedSync(bl); } catch { /* its owner record stays, reclaimable once we exit */ }
  }
}

/**
 * Remove `file` only if it is still the object last judged there.
 * 'removed'; 'changed': another object, or the judged one changed since, is
 * there and left as it is; 'missing': nothing there; 'unknown': nothing was
 * judged at that path in this process (or it was a directory and
 * the call refuses what is there: the fs call decides). Forgets the judgement.
 */
function removeJudgedSync(file, how) {
  const p = pathOf(file);
  if (p === null) return 'unknown';
  const key = path.resolve(p);
  const rec = judged.get(key);
  if (!rec) return 'unknown';
  try {
    let st;
    try {
      st = fs.lstatSync(p, { bigint: rec.big });
    } catch (e) {
      if (e.code === 'ENOENT') return 'missing';
      throw e;
    }
    if (!sameJudged(st, rec, false)) return 'changed'; // most losers of a race stop here, no lock taken
    return serialized(key, () => removeIfStill(p, key, rec, how));
  } finally {
    unjudge(key); // one judgement, one removal; the pin held the inode until now
  }
}

// Drop-ins for the takeover's removal calls.
function unlinkJudgedSync(file) {
  const r = removeJudgedSync(file, 'unlink');
  if (r === 'unknown') return fs.unlinkSync(file);
  if (r === 'missing') throw missing('unlink', file);
  return undefined;
}

function rmJudgedSync(file, options) {
  const r = removeJudgedSync(file, rmHow(options));
  if (r === 'unknown') return fs.rmSync(file, options);
  if (r === 'missing' && !(options && options.force)) throw missing('rm', file);
  return undefined;
}

async function unlinkJudged(file) {
  const r = removeJudgedSync(file, 'unlink');
  if (r === 'unknown') return fs.promises.unlink(file);
  if (r === 'missing') throw missing('unlink', file);
  return undefined;
}

async function rmJudged(file, options) {
  const r = removeJudgedSync(file, rmHow(options));
  if (r === 'unknown') return fs.promises.rm(file, options);
  if (r === 'missing' && !(options && options.force)) throw missing('rm', file);
  return undefined;
}

function rmdirJudgedSync(file, options) {
  const r = removeJudgedSync(file, 'rmdir');
  if (r === 'unknown') return fs.rmdirSync(file, options);
  if (r === 'missing') throw missing('rmdir', file);
  return undefined;
}

async function rmdirJudged(file, options) {
  const r = removeJudgedSync(file, 'rmdir');
  if (r === 'unknown') return fs.promises.rmdir(file, options);
  if (r === 'missing') throw missing('rmdir', file);
  return undefined;
}

// Drop-ins for a removal the module makes in one helper for both its release
// and its stale takeover (`removeLock(p)` called from both): this process's
// latest word on the path decides. A judgement of it (the takeover's look)
// binds the removal to the object judged, as unlinkJudgedSync; else a create
// this process made binds it to that inode, as unlinkOwnedSync (a create
// forgets the judgements of its path, so a holder's release is always bound
// to its own lock); else it removes by name, as before.
function removeBound(file, how) {
  const p = pathOf(file);
  if (p !== null && judged.has(path.resolve(p))) return removeJudgedSync(file, how);
  return releaseOwned(file, how);
}

function unlinkBoundSync(file) {
  const r = removeBound(file, 'unlink');
  if (r === 'unknown') return fs.unlinkSync(file);
  if (r === 'missing') throw missing('unlink', file);
  return undefined;
}

function rmBoundSync(file, options) {
  const r = removeBound(file, rmHow(options));
  if (r === 'unknown') return fs.rmSync(file, options);
  if (r === 'missing' && !(options && options.force)) throw missing('rm', file);
  return undefined;
}

async function unlinkBound(file) {
  const r = removeBound(file, 'unlink');
  if (r === 'unknown') return fs.promises.unlink(file);
  if (r === 'missing') throw missing('unlink', file);
  return undefined;
}

async function rmBound(file, options) {
  const r = removeBound(file, rmHow(options));
  if (r === 'unknown') return fs.promises.rm(file, options);
  if (r === 'missing' && !(options && options.force)) throw missing('rm', file);
  return undefined;
}

function rmdirBoundSync(file, options) {
  const r = removeBound(file, 'rmdir');
  if (r === 'unknown') return fs.rmdirSync(file, options);
  if (r === 'missing') throw missing('rmdir', file);
  return undefined;
}

async function rmdirBound(file, options) {
  const r = removeBound(file, 'rmdir');
  if (r === 'unknown') return fs.promises.rmdir(file, options);
  if (r === 'missing') throw missing('rmdir', file);
  return undefined;
}

// ---------------------------------------------------------------------------
// An exclusive lock (lockfix's LF104 fix): lockrt's lockfile strategy in pure
// JavaScript (docs/lockrt.md, sections 2 and 3). The lock is held while the
// lock file holds this process's owner record, exactly the bytes lockrt
// writes ({"pid":..,"start_time":..,"host":"..","token":".."} and a newline),
// created exclusively. A record is reclaimed only when its owner is provably
// gone (same host and no such process, a zombie, or another start time: the
// pid was reused); time never breaks a live holder. A file that is not
// exactly a record is never removed. The wait is bounded (10 s by default);
// the release removes the record only while the path still names the inode
// this process created (releaseIfOwnedSync).
//
// acquireLockSync / acquireLock return a release function. When the lock is
// not acquired in time, or cannot be taken at all (the directory is missing,
// read-only, a foreign file sits at the lock path), they return a release that
// does nothing and the caller runs unlocked, as it did before the fix.

const os = require('os');

const RECORD = /^\{"pid":([1-9][0-9]{0,18}),"start_time":(0|[1-9][0-9]{0,19}),"host":"((?:[^"\\\x00-\x1f\x7f]|\\"|\\\\|\\u00[0-9a-f]{2})*)","token":"([0-9a-f]{32})"\}\n$/;
const FOREIGN_GRACE_MS = 30000; // a creator may be between its create and its write
const PID_MAX = 0x7fffffff;

function procStat(pid) {
  // [state, starttime] from /proc/<pid>/stat; 'gone' when there is no entry;
  // null when it cannot be read (not Linux, hidepid).
  let raw;
  try {
    raw = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch (e) {
    return e.code === 'ENOENT' ? 'gone' : null;
  }
  const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
  if (fields.length < 20) return null;
  return [fields[0], fields[19]];
}

let ownStart = null;
function ownStartTime() {
  if (ownStart === null) {
    const st = process.platform === 'linux' ? procStat(process.pid) : null;
    ownStart = Array.isArray(st) && /^(0|[1-9][0-9]*)$/.test(st[1]) ? st[1] : '0';
  }
  return ownStart;
}

function escapeHost(host) {
  let out = '';
  for (const ch of host) {
    const c = ch.codePointAt(0);
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (c < 0x20 || c === 0x7f) out += '\\u00' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out;
}

function unescapeHost(text) {
  return text.replace(/\\(u00([0-9a-f]{2})|"|\\)/g, (m, what, hex) => (hex ? String.fromCharCode(parseInt(hex, 16)) : what));
}

function ownRecord() {
  return `{"pid":${process.pid},"start_time":${ownStartTime()},"host":"${escapeHost(os.hostname())}",` +
    `"token":"${crypto.randomBytes(16).toString('hex')}"}\n`;
}

// 'dead' only when the owner is provably gone; 'alive' or 'unknown' hold.
function ownerLiveness(pid, startTime) {
  if (pid <= 0 || pid > PID_MAX) return 'unknown';
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code === 'ESRCH') return 'dead';
    return e.code === 'EPERM' ? 'alive' : 'unknown';
  }
  if (process.platform !== 'linux') return 'alive';
  const st = procStat(pid);
  if (st === 'gone') {
    try { process.kill(pid, 0); } catch (e) { if (e.code === 'ESRCH') return 'dead'; }
    return 'alive';
  }
  if (st === null) return 'alive';
  if (st[0] === 'Z' || st[0] === 'X') return 'dead';
  if (startTime !== '0' && st[1] !== startTime) return 'dead';
  return 'alive';
}

// ---------------------------------------------------------------------------
// holderAliveSync (lockfix's LF302 fix, an unsafe fix): is the process whose
// pid the module's own lock file records still the one that wrote it? The
// module judged its lock stale by age alone, so a holder paused or working
// past the limit lost it to a breaker; the fix adds "and its holder is not
// alive" to that judgement. A record says nothing about pid reuse, so the
// writer is told apart by time: a live process that started before the lock
// was last written had that pid when it was written (pids of live processes
// are unique), so it is the writer; one that started after is another
// process under a reused pid. Linux only (the start time is /proc's, the boot
// time /proc/stat's btime, rounded down: a start computed early never makes
// a later process look like the writer). Anything this cannot tell (another
// platform, no pid in the record, a record naming another host, /proc
// unreadable) answers false, and the module judges by age, as before.

const HOLDER_PID_MAX = 4194304; // Linux's PID_MAX_LIMIT
const CLOCK_TICKS = 100; // USER_HZ: /proc's starttime unit on every Linux ABI

let bootSeconds;
function bootTime() {
  if (bootSeconds === undefined) {
    bootSeconds = null;
    try {
      const m = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'latin1'));
      if (m) bootSeconds = Number(m[1]);
    } catch { /* not Linux, or no /proc */ }
  }
  return bootSeconds;
}

// { pid, host } of a record: a JSON object's "pid" (and "hostname" or "host"),
// else the text's leading decimal number ("1234", "1234\n", "1234:token").
function recordedPid(text) {
  const t = text.trim();
  let pid, host;
  if (t.startsWith('{')) {
    let o;
    try { o = JSON.parse(t); } catch { return null; }
    if (!o || typeof o !== 'object') return null;
    pid = typeof o.pid === 'string' && /^[0-9]+$/.test(o.pid) ? Number(o.pid) : o.pid;
    host = typeof o.hostname === 'string' ? o.hostname : typeof o.host === 'string' ? o.host : undefined;
  } else {
    const m = /^([0-9]{1,7})(?![0-9.eE])/.exec(t);
    if (!m) return null;
    pid = Number(m[1]);
  }
  if (!Number.isSafeInteger(pid) || pid < 2 || pid > HOLDER_PID_MAX) return null;
  return { pid, host };
}

// Did live process `pid` start after `mtimeMs`? true only when /proc says so
// (Linux); false when it started before, or when that cannot be told.
function startedAfter(pid, mtimeMs) {
  if (process.platform !== 'linux') return false;
  const ps = procStat(pid);
  const boot = bootTime();
  if (!Array.isArray(ps) || boot === null || !/^[0-9]+$/.test(ps[1])) return false;
  return (boot + Number(ps[1]) / CLOCK_TICKS) * 1000 > mtimeMs;
}

/** process.kill(pid, 0) for a pid read from `file` (LF303's fix for a probe
 * that trusts a reused pid): the same result and errors, and an ESRCH error
 * too when the live process with that pid started after `file` was last
 * written: not the process that wrote it, but another one under its reused
 * pid. Where that cannot be told (not Linux, the file gone), as before. */
function killProbeSync(pid, file) {
  const result = process.kill(pid, 0);
  let st;
  try {
    st = fs.statSync(file);
  } catch {
    return result;
  }
  if (startedAfter(Number(pid), st.mtimeMs)) {
    const e = new Error(`kill ESRCH`);
    e.code = 'ESRCH';
    e.errno = -3;
    e.syscall = 'kill';
    throw e;
  }
  return result;
}

/** Is the process the lock file at `file` records (its pid) alive and the one
 * that wrote it? false when it is not, or when that cannot be told. */
function holderAliveSync(file) {
  if (process.platform !== 'linux') return false;
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return false;
  }
  let st, text;
  try {
    st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > 4096) return false;
    const buf = Buffer.alloc(4096);
    text = buf.subarray(0, fs.readSync(fd, buf, 0, 4096, 0)).toString('utf8');
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
  const rec = recordedPid(text);
  if (!rec || (rec.host !== undefined && rec.host !== os.hostname())) return false;
  try {
    process.kill(rec.pid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
  }
  const ps = procStat(rec.pid);
  if (!Array.isArray(ps) || ps[0] === 'Z' || ps[0] === 'X' || bootTime() === null) return false;
  return !startedAfter(rec.pid, st.mtimeMs) && /^[0-9]+$/.test(ps[1]);
}

function lockError(code, message, file) {
  const e = new Error(`${message}: '${file}'`);
  e.code = code;
  e.path = String(file);
  return e;
}

// What sits at the lock path: null (nothing: try the create again), 'held',
// or { bytes, st } of a record whose owner is provably gone.
function judge(file) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    if (e.code === 'ELOOP') throw lockError('LOCKRT_ESYMLINK', 'a symlink sits at the lock path', file);
    throw e;
  }
  let st, bytes;
  try {
    st = fs.fstatSync(fd, { bigint: true });
    if (!st.isFile()) throw lockError('LOCKRT_EBADTYPE', 'not a regular file at the lock path', file);
    const buf = Buffer.alloc(1025);
    const n = st.size > 1024n ? 0 : fs.readSync(fd, buf, 0, 1025, 0);
    bytes = buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
  const m = RECORD.exec(bytes.toString('utf8'));
  if (!m) {
    if (Date.now() - Number(st.mtimeMs) < FOREIGN_GRACE_MS) return 'held';
    throw lockError('LOCKRT_ECORRUPT', 'not a lockrt owner record at the lock path (lockrt never removes it)', file);
  }
  if (unescapeHost(m[3]) !== os.hostname()) return 'held';
  return ownerLiveness(Number(m[1]), m[2]) === 'dead' ? { bytes, st } : 'held';
}

// Remove a dead owner's record, bound to what was judged: rename it aside,
// check it is still those bytes on that inode, unlink; else put it back.
function reclaim(file, judged) {
  const q = quarantineName(path.resolve(String(file)));
  try {
    fs.renameSync(file, q);
  } catch (e) {
    if (e.code === 'ENOENT') return;
    throw e;
  }
  let same = false;
  let st;
  try {
    st = fs.lstatSync(q, { bigint: true });
    same = sameObject(st, judged.st) && fs.readFileSync(q).equals(judged.bytes);
  } catch { /* gone, or not a file: put back whatever is there */ }
  if (same) fs.unlinkSync(q);
  else putBack(q, file, st);
}

// One attempt: true when the lock is now ours, false when it is held.
function tryAcquire(file) {
  for (let round = 0; round < 4; round++) {
    try {
      writeFileExclusiveSync(file, ownRecord(), { flag: 'wx', mode: 0o644 });
      return true;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    const verdict = judge(file);
    if (verdict === 'held') return false;
    if (verdict !== null) reclaim(file, verdict);
  }
  return false;
}

function releaser(file) {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    try { releaseIfOwnedSync(file); } catch { /* the record stays; its owner's exit makes it reclaimable */ }
  };
}

function nothing() {}

function timeoutOf(options) {
  const t = options && options.timeout !== undefined ? Number(options.timeout) : 10000;
  return Number.isFinite(t) && t >= 0 ? t : 10000;
}

const napCell = new Int32Array(new SharedArrayBuffer(4));

/** Take the exclusive lock at `file` (a sibling lock file such as
 * `state.json.lock`), waiting at most options.timeout ms (10000). Returns the
 * release function, or null when the wait ran out while another process held
 * it. What keeps the lock from being taken at all (a symlink or a file that is
 * no owner record at the lock path, a missing or read-only directory) is
 * thrown, as the failed create of a module's own lock was: a module whose
 * whole lock protocol is swapped for this one keeps reporting a timeout its
 * own way (throws, returns false) and sees the errors it saw. */
function takeLockSync(file, options) {
  const deadline = Date.now() + timeoutOf(options);
  let delay = 1;
  for (;;) {
    if (tryAcquire(file)) return releaser(file);
    const left = deadline - Date.now();
    if (left <= 0) return null;
    Atomics.wait(napCell, 0, 0, Math.min(delay * (0.5 + Math.random() / 2), left));
    delay = Math.min(delay * 2, 50);
  }
}

/** takeLockSync for async code: the wait does not block the event loop. */
async function takeLock(file, options) {
  const deadline = Date.now() + timeoutOf(options);
  let delay = 1;
  for (;;) {
    if (tryAcquire(file)) return releaser(file);
    const left = deadline - Date.now();
    if (left <= 0) return null;
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay * (0.5 + Math.random() / 2), left)));
    delay = Math.min(delay * 2, 50);
  }
}

// ---------------------------------------------------------------------------
// A lock directory (the protocol swap of a module whose own lock is an
// exclusive `mkdir`): the same protocol, with the directory as the lock and
// the owner record a file inside it, DIR_RECORD, created exclusively right
// after the mkdir. The directory stays a directory so that processes of the
// old code and of the new one still exclude each other during a rollout:
// either one's mkdir fails on the other's directory. And the old code cannot
// break a lock of the new one, however old it judges it: its rmdir fails on a
// directory that holds a record, and its recursive rm only ever ran in the
// old code's own takeover.
//
// Acquire: mkdir (never `recursive`, which succeeds on an existing one), then
// the record. A directory without a record is its maker between the two
// calls (held, for FOREIGN_GRACE_MS after its last change), or a directory
// the old code made, or a maker that died in between: never removed, as a
// foreign lock file is not (LOCKRT_ECORRUPT once the grace is over).
// Reclaim a dead owner's directory: the record first, renamed aside inside
// the directory and checked to be the bytes and inode judged (else put back
// with link(), which replaces nothing), so that only one reclaimer goes on;
// then the directory, renamed aside and removed only if it is the inode
// judged and now empty (else put back: see putBack for the window a
// directory leaves). Release: the record, then the directory, each only
// while it is the one this process made (releaseOwned).
const DIR_RECORD = '.lockrt-owner';

function dirLockError(e, dir) {
  if (e.code === 'ELOOP') return lockError('LOCKRT_ESYMLINK', 'a symlink sits at the lock path', dir);
  return e;
}

// What sits at the lock directory: null (nothing: try the mkdir again),
// 'held', or { bytes, st, dst } of a record (st) in a directory (dst) whose
// owner is provably gone.
function judgeDir(dir) {
  let dst;
  try {
    dst = fs.lstatSync(dir, { bigint: true });
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw e;
  }
  if (dst.isSymbolicLink()) throw lockError('LOCKRT_ESYMLINK', 'a symlink sits at the lock path', dir);
  if (!dst.isDirectory()) throw lockError('LOCKRT_EBADTYPE', 'not a directory at the lock path', dir);
  let fd;
  try {
    fd = fs.openSync(path.join(dir, DIR_RECORD), fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    if (e.code === 'ENOENT') {
      if (Date.now() - Number(dst.mtimeMs) < FOREIGN_GRACE_MS) return 'held';
      throw lockError('LOCKRT_ECORRUPT', 'a directory with no lockrt owner record at the lock path (lockrt never removes it)', dir);
    }
    if (e.code === 'ENOTDIR') return null; // replaced by a file since the lstat: look again
    throw dirLockError(e, dir);
  }
  let st, bytes;
  try {
    st = fs.fstatSync(fd, { bigint: true });
    if (!st.isFile()) throw lockError('LOCKRT_EBADTYPE', 'not a regular file at the owner record', dir);
    const buf = Buffer.alloc(1025);
    const n = st.size > 1024n ? 0 : fs.readSync(fd, buf, 0, 1025, 0);
    bytes = buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
  const m = RECORD.exec(bytes.toString('utf8'));
  if (!m) {
    if (Date.now() - Number(st.mtimeMs) < FOREIGN_GRACE_MS) return 'held';
    throw lockError('LOCKRT_ECORRUPT', 'not a lockrt owner record in the lock directory (lockrt never removes it)', dir);
  }
  if (unescapeHost(m[3]) !== os.hostname()) return 'held';
  return ownerLiveness(Number(m[1]), m[2]) === 'dead' ? { bytes, st, dst } : 'held';
}

function reclaimDir(dir, judged) {
  const record = path.join(dir, DIR_RECORD);
  const q = quarantineName(path.resolve(record));
  try {
    fs.renameSync(record, q);
  } catch (e) {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return; // another reclaimer took it first
    throw e;
  }
  let qst;
  let same = false;
  try {
    qst = fs.lstatSync(q, { bigint: true });
    same = sameObject(qst, judged.st) && fs.readFileSync(q).equals(judged.bytes);
  } catch { /* gone, or not a file */ }
  if (!same) {
    if (qst) putBack(q, record, qst);
    return;
  }
  fs.unlinkSync(q);
  // the record this process judged is gone, so no other reclaimer gets past
  // the step above for this directory: only the directory is left
  const qd = quarantineName(path.resolve(dir));
  try {
    fs.renameSync(dir, qd);
  } catch (e) {
    if (e.code === 'ENOENT') return;
    throw e;
  }
  let qdst = null;
  try {
    qdst = fs.lstatSync(qd, { bigint: true });
  } catch { /* gone from under us */ }
  if (qdst === null) return;
  if (sameObject(qdst, judged.dst)) {
    try {
      fs.rmdirSync(qd);
      return;
    } catch { /* written into since: it goes back */ }
  }
  putBack(qd, dir, qdst);
}

// Remember the lock directory this process made. Where a directory cannot be
// opened to pin it (Windows), its NTFS file id is proof enough (see remember).
function rememberOwnDir(dir) {
  if (process.platform !== 'win32') return rememberDir(dir);
  try {
    const st = fs.lstatSync(dir, { bigint: true });
    const key = path.resolve(dir);
    forget(key);
    unjudge(key);
    held.set(key, { dev: st.dev, ino: st.ino, pin: null, stableIds: true });
  } catch { /* not remembered: the release leaves the directory */ }
}

// One attempt: true when the lock directory is now ours, false when it is held.
function tryAcquireDir(dir) {
  for (let round = 0; round < 4; round++) {
    try {
      fs.mkdirSync(dir);
    } catch (e) {
      if (e.code !== 'EEXIST') throw dirLockError(e, dir);
      const verdict = judgeDir(dir);
      if (verdict === 'held') return false;
      if (verdict !== null) reclaimDir(dir, verdict);
      continue;
    }
    rememberOwnDir(dir);
    try {
      writeFileExclusiveSync(path.join(dir, DIR_RECORD), ownRecord(), { flag: 'wx', mode: 0o644 });
    } catch (e) {
      // the directory this process just made goes again (only if it is still
      // that one); a record already in it means the path names another one
      try { releaseIfOwnedSync(dir); } catch { /* left: its grace, then ECORRUPT, tells */ }
      if (e.code === 'EEXIST') return false;
      throw e;
    }
    return true;
  }
  return false;
}

function dirReleaser(dir) {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    try {
      if (releaseIfOwnedSync(path.join(dir, DIR_RECORD)) === 'released') releaseIfOwnedSync(dir);
    } catch { /* what stays is reclaimable once this process is gone */ }
  };
}

/** takeLockSync for a lock directory `dir` (made with mkdir; lockrt's owner
 * record is the file DIR_RECORD inside it): the release function, or null
 * when the wait ran out while another process held it. Throws what keeps the
 * lock from being taken (a symlink, a file or a directory with no record at
 * the path, a missing or read-only parent). */
function takeLockDirSync(dir, options) {
  const deadline = Date.now() + timeoutOf(options);
  let delay = 1;
  for (;;) {
    if (tryAcquireDir(dir)) return dirReleaser(dir);
    const left = deadline - Date.now();
    if (left <= 0) return null;
    Atomics.wait(napCell, 0, 0, Math.min(delay * (0.5 + Math.random() / 2), left));
    delay = Math.min(delay * 2, 50);
  }
}

/** takeLockDirSync for async code: the wait does not block the event loop. */
async function takeLockDir(dir, options) {
  const deadline = Date.now() + timeoutOf(options);
  let delay = 1;
  for (;;) {
    if (tryAcquireDir(dir)) return dirReleaser(dir);
    const left = deadline - Date.now();
    if (left <= 0) return null;
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay * (0.5 + Math.random() / 2), left)));
    delay = Math.min(delay * 2, 50);
  }
}

/** Take the exclusive lock at `file`, waiting at most options.timeout ms
 * (10000). Returns the release function; a no-op one when the lock was not
 * taken, in time or at all (see above: LF104's fix keeps the unlocked
 * behaviour the module had). */
function acquireLockSync(file, options) {
  try {
    return takeLockSync(file, options) || nothing;
  } catch {
    return nothing;
  }
}

/** acquireLockSync for async code: the wait does not block the event loop. */
async function acquireLock(file, options) {
  try {
    return (await takeLock(file, options)) || nothing;
  } catch {
    return nothing;
  }
}

exports.writeFileExclusiveSync = writeFileExclusiveSync;
exports.writeFileExclusive = writeFileExclusive;
exports.openExclusiveSync = openExclusiveSync;
exports.openExclusive = openExclusive;
exports.mkdirExclusiveSync = mkdirExclusiveSync;
exports.mkdirExclusive = mkdirExclusive;
exports.releaseIfOwnedSync = releaseIfOwnedSync;
exports.releaseIfOwned = releaseIfOwned;
exports.unlinkOwnedSync = unlinkOwnedSync;
exports.rmOwnedSync = rmOwnedSync;
exports.unlinkOwned = unlinkOwned;
exports.rmOwned = rmOwned;
exports.rmdirOwnedSync = rmdirOwnedSync;
exports.rmdirOwned = rmdirOwned;
exports.readFileJudgedSync = readFileJudgedSync;
exports.readFileJudged = readFileJudged;
exports.statJudgedSync = statJudgedSync;
exports.lstatJudgedSync = lstatJudgedSync;
exports.statJudged = statJudged;
exports.lstatJudged = lstatJudged;
exports.unlinkJudgedSync = unlinkJudgedSync;
exports.rmJudgedSync = rmJudgedSync;
exports.unlinkJudged = unlinkJudged;
exports.rmJudged = rmJudged;
exports.rmdirJudgedSync = rmdirJudgedSync;
exports.rmdirJudged = rmdirJudged;
exports.unlinkBoundSync = unlinkBoundSync;
exports.rmBoundSync = rmBoundSync;
exports.unlinkBound = unlinkBound;
exports.rmBound = rmBound;
exports.rmdirBoundSync = rmdirBoundSync;
exports.rmdirBound = rmdirBound;
exports.acquireLockSync = acquireLockSync;
exports.acquireLock = acquireLock;
exports.takeLockSync = takeLockSync;
exports.takeLock = takeLock;
exports.takeLockDirSync = takeLockDirSync;
exports.takeLockDir = takeLockDir;
exports.holderAliveSync = holderAliveSync;
exports.killProbeSync = killProbeSync;
