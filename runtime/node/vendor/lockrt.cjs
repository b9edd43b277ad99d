'use strict';
// lockrt (vendored, pure JavaScript): identity-bound release of an
// exclusively created lock file. Copied next to a module by `lockfix fix`
// (LF301); needs no addon. One CommonJS file so ESM and CommonJS modules,
// .js/.mjs/.cjs/.ts alike, can import it (`import { x } from "./lockrt.cjs"`).
//
// The module keeps creating its lock exactly as before (same flags, mode and
// bytes), through writeFileExclusiveSync / writeFileExclusive /
// openExclusiveSync, which also remember which inode the create made: a
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
// that appeared at the path since. A successor's lock (another inode) is never
// renamed or touched: its bytes stay as its owner wrote them.
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
  const made = fs.fstatSync(fd, { bigint: true });
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

function quarantineName(file) {
  const dir = path.dirname(file);
  return path.join(dir, `.${path.basename(file)}.lockrt-release.${process.pid}.${crypto.randomBytes(8).toString('hex')}`);
}

// Put a quarantined object back at `file` without replacing anything there.
function putBack(q, file) {
  try {
    fs.linkSync(q, file);
    fs.unlinkSync(q);
  } catch {
    // something appeared at the path meanwhile (or link is refused): the
    // object stays under its quarantine name, never deleted
  }
}

/**
 * Remove `file` only if it is the lock this process created there.
 * 'released': it was, and is gone; 'not-owned': the path names another object
 * (a successor's lock, a symlink), left as it is; 'missing': nothing there;
 * 'unknown': this process created nothing at that path it still knows of.
 */
function releaseIfOwnedSync(file) {
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
  if (rec.pin === null || !sameObject(st, rec)) {
    forget(key);
    return 'not-owned';
  }
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
    fs.unlinkSync(q);
    forget(key);
    return 'released';
  }
  if (qst !== null) putBack(q, file);
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
  const r = releaseIfOwnedSync(file);
  if (r === 'unknown') return fs.unlinkSync(file);
  if (r === 'missing') throw missing('unlink', file);
  return undefined;
}

function rmOwnedSync(file, options) {
  const r = releaseIfOwnedSync(file);
  if (r === 'unknown') return fs.rmSync(file, options);
  if (r === 'missing' && !(options && options.force)) throw missing('rm', file);
  return undefined;
}

async function unlinkOwned(file) {
  const r = releaseIfOwnedSync(file);
  if (r === 'unknown') return fs.promises.unlink(file);
  if (r === 'missing') throw missing('unlink', file);
  return undefined;
}

async function rmOwned(file, options) {
  const r = releaseIfOwnedSync(file);
  if (r === 'unknown') return fs.promises.rm(file, options);
  if (r === 'missing' && !(options && options.force)) throw missing('rm', file);
  return undefined;
}

exports.writeFileExclusiveSync = writeFileExclusiveSync;
exports.writeFileExclusive = writeFileExclusive;
exports.openExclusiveSync = openExclusiveSync;
exports.releaseIfOwnedSync = releaseIfOwnedSync;
exports.releaseIfOwned = releaseIfOwned;
exports.unlinkOwnedSync = unlinkOwnedSync;
exports.rmOwnedSync = rmOwnedSync;
exports.unlinkOwned = unlinkOwned;
exports.rmOwned = rmOwned;
