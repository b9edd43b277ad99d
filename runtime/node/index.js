'use strict';
/*
 * lockrt for Node.js: process-level exclusive locks for state files.
 *
 * Every operation exists in a sync form (exports.x) and a promise form
 * (exports.promises.x, also exports.xAsync). Promise forms run on the libuv
 * thread pool, so waiting for a lock never blocks the event loop (a waiting
 * acquisition occupies one pool thread; see UV_THREADPOOL_SIZE).
 *
 * The native addon is loaded from LOCKRT_NODE_ADDON when set, else from
 * lockrt.node beside this file (the CMake build puts both there).
 */
const path = require('node:path');

function loadAddon() {
  const explicit = process.env.LOCKRT_NODE_ADDON;
  const candidates = explicit ? [path.resolve(explicit)] : [path.join(__dirname, 'lockrt.node')];
  const errors = [];
  for (const candidate of candidates) {
    try {
      return { addon: require(candidate), addonPath: candidate };
    } catch (err) {
      errors.push(`${candidate}: ${err.message}`);
    }
  }
  throw new Error(`lockrt: cannot load the native addon (build it with CMake, or set LOCKRT_NODE_ADDON): ${errors.join('; ')}`);
}

const { addon, addonPath } = loadAddon();

const status = Object.freeze({
  OK: 0, ETIMEDOUT: -1, EINVAL: -2, ESYMLINK: -3, EBADTYPE: -4, EESCAPE: -5, EMISMATCH: -6,
  ENOTOWNER: -7, ENOTSTALE: -8, ENOENT: -9, ECORRUPT: -10, ENOMEM: -11, EIO: -12, ENOTSUP: -13,
});

/** A lockrt operation failed: `status` (negative lockrt code), `code` ("LOCKRT_E..."), `path`. */
class LockrtError extends Error {
  constructor(message, code, statusCode, filePath) {
    super(message);
    this.code = code;
    this.status = statusCode;
    if (filePath !== undefined) this.path = filePath;
  }
}
Object.defineProperty(LockrtError.prototype, 'name', { value: 'LockrtError' });

// The addon throws plain Errors carrying `status`; give them the public class
// without losing their stack.
function rethrow(err) {
  if (err && typeof err.status === 'number' && typeof err.code === 'string' && err.code.startsWith('LOCKRT_')) {
    Object.setPrototypeOf(err, LockrtError.prototype);
  }
  throw err;
}

const STRATEGIES = { auto: 0, oslock: 1, lockfile: 2 };
const DEFAULT_TIMEOUT_MS = 10000;

function timeoutOf(opts) {
  const t = opts == null ? undefined : opts.timeout;
  if (t === undefined) return DEFAULT_TIMEOUT_MS;
  if (t === null || t === Infinity) return -1;
  if (typeof t !== 'number' || Number.isNaN(t)) throw new TypeError('timeout must be a number of milliseconds');
  return t < 0 ? -1 : Math.ceil(t);
}

function strategyOf(opts) {
  const s = opts == null ? undefined : opts.strategy;
  if (s === undefined || s === null) return 0;
  const code = STRATEGIES[s];
  if (code === undefined) {
    throw new LockrtError(`unknown strategy ${JSON.stringify(s)} (use 'oslock', 'lockfile' or 'auto') (LOCKRT_EINVAL)`,
      'LOCKRT_EINVAL', status.EINVAL);
  }
  return code;
}

function toBuffer(data) {
  if (Buffer.isBuffer(data)) return data;
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError('data must be a string, Buffer or typed array');
}

/** A held lock. release() gives it up; a second release() does nothing. */
class LockHandle {
  constructor(lockPath, external) {
    this.path = lockPath;
    this._external = external;
    this._info = null;
  }

  _describe() {
    if (this._info === null) {
      if (this._external === null) return { strategy: undefined, token: undefined };
      this._info = addon.handleInfo(this._external);
    }
    return this._info;
  }

  /** True until release(). */
  get held() { return this._external !== null; }

  /** 'oslock' or 'lockfile' (undefined if first asked after release). */
  get strategy() { return this._describe().strategy; }

  /** Owner token of a lockfile lock ('' for OS locks). */
  get token() { return this._describe().token; }

  release() {
    const external = this._external;
    if (external === null) return;
    this._external = null;
    try {
      addon.release(external);
    } catch (err) {
      rethrow(err);
    }
  }
}
if (typeof Symbol.dispose === 'symbol') {
  LockHandle.prototype[Symbol.dispose] = LockHandle.prototype.release;
}

function isThenable(v) {
  return v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function';
}

// ---------------------------------------------------------------- sync forms

/**
 * Acquire the exclusive lock at `lockPath`. Returns a LockHandle, or null when
 * the lock stayed held by a live owner for opts.timeout ms (default 10000;
 * 0 = try once, Infinity/null/negative = wait forever). Never throws on timeout.
 */
function exclusiveLock(lockPath, opts) {
  const timeout = timeoutOf(opts);
  const strategy = strategyOf(opts);
  let external;
  try {
    external = addon.acquire(lockPath, timeout, strategy, false);
  } catch (err) {
    rethrow(err);
  }
  return external === null ? null : new LockHandle(lockPath, external);
}

/**
 * Run fn(acquired) under the lock and release it afterwards. `acquired` is false
 * when the wait timed out: the caller decides whether to proceed. If fn returns
 * a promise, the lock is released when it settles.
 */
function withExclusiveLock(lockPath, opts, fn) {
  if (typeof opts === 'function') { fn = opts; opts = undefined; }
  const handle = exclusiveLock(lockPath, opts);
  let result;
  try {
    result = fn(handle !== null);
  } catch (err) {
    if (handle) handle.release();
    throw err;
  }
  if (handle && isThenable(result)) {
    return Promise.resolve(result).finally(() => handle.release());
  }
  if (handle) handle.release();
  return result;
}

function call(fn, ...args) {
  try {
    return fn(...args);
  } catch (err) {
    return rethrow(err);
  }
}

/** Join `name` onto `dir` safely (see lockrt_confined_path); throws LockrtError EESCAPE. */
function confinedPath(dir, name) { return call(addon.confinedPath, dir, name, false); }

/** Atomically replace `filePath` with `data` (string as UTF-8, Buffer, typed array). */
function writeAtomic(filePath, data, opts) {
  const mode = opts && opts.mode !== undefined ? opts.mode : 0o644;
  return call(addon.writeAtomic, filePath, toBuffer(data), mode, false);
}

/** Remove the lockfile record at `lockPath` only if it carries `token`. */
function releaseIfOwned(lockPath, token) { return call(addon.releaseIfOwned, lockPath, token, false); }

/** Remove the lockfile record at `lockPath` only if its owner is provably gone. */
function reclaimIfStale(lockPath) { return call(addon.reclaimIfStale, lockPath, false); }

/** 'alive' | 'dead' | 'unknown' for pid on this host (EPERM = alive; differing start time = dead). */
function processAlive(pid, startTime) { return call(addon.processAlive, pid, startTime === undefined ? 0 : startTime, false); }

/** Platform start stamp of pid as a bigint, or null. */
function processStartTime(pid) { return call(addon.processStartTime, pid); }

/** Owner record of a lockfile lock: {pid, startTime (bigint), host, token}. */
function ownerRead(lockPath) { return call(addon.ownerRead, lockPath); }

function strerror(code) { return addon.strerror(code); }

/** Close the unlocked lock-file descriptors kept for this process's next
 *  acquisition of the same path (Unix OS locks; held locks are not affected). */
function closeIdleDescriptors() { addon.closeIdleDescriptors(); }

/** How many idle descriptors to keep from now on (0 = none, at most 64);
 *  returns the previous bound. */
function setKeptDescriptors(max) {
  if (!Number.isInteger(max) || max < 0) throw new TypeError('setKeptDescriptors: max must be a non-negative integer');
  return addon.setKeptDescriptors(max);
}

// ---------------------------------------------------------------- promise forms

function callAsync(fn, ...args) {
  let promise;
  try {
    promise = fn(...args, true);
  } catch (err) {
    return Promise.reject(err).catch(rethrow);
  }
  return promise.catch(rethrow);
}

const promises = {
  async exclusiveLock(lockPath, opts) {
    const timeout = timeoutOf(opts);
    const strategy = strategyOf(opts);
    // One non-blocking attempt inline (it never waits: timeout 0), so an
    // uncontended lock costs no thread-pool round trip; only a wait goes to
    // the pool, off the event loop.
    let external;
    try {
      external = addon.acquire(lockPath, 0, strategy, false);
    } catch (err) {
      rethrow(err);
    }
    if (external === null && timeout !== 0) {
      external = await callAsync(addon.acquire, lockPath, timeout, strategy);
    }
    return external === null ? null : new LockHandle(lockPath, external);
  },
  async withExclusiveLock(lockPath, opts, fn) {
    if (typeof opts === 'function') { fn = opts; opts = undefined; }
    const handle = await promises.exclusiveLock(lockPath, opts);
    try {
      return await fn(handle !== null);
    } finally {
      if (handle) handle.release();
    }
  },
  confinedPath(dir, name) { return callAsync(addon.confinedPath, dir, name); },
  writeAtomic(filePath, data, opts) {
    const mode = opts && opts.mode !== undefined ? opts.mode : 0o644;
    let buffer;
    try { buffer = toBuffer(data); } catch (err) { return Promise.reject(err); }
    return callAsync(addon.writeAtomic, filePath, buffer, mode);
  },
  releaseIfOwned(lockPath, token) { return callAsync(addon.releaseIfOwned, lockPath, token); },
  reclaimIfStale(lockPath) { return callAsync(addon.reclaimIfStale, lockPath); },
  processAlive(pid, startTime) { return callAsync(addon.processAlive, pid, startTime === undefined ? 0 : startTime); },
};

module.exports = {
  LockrtError,
  LockHandle,
  status,
  addonPath,
  exclusiveLock,
  withExclusiveLock,
  confinedPath,
  writeAtomic,
  releaseIfOwned,
  reclaimIfStale,
  processAlive,
  processStartTime,
  ownerRead,
  strerror,
  closeIdleDescriptors,
  setKeptDescriptors,
  promises,
  exclusiveLockAsync: promises.exclusiveLock,
  withExclusiveLockAsync: promises.withExclusiveLock,
  confinedPathAsync: promises.confinedPath,
  writeAtomicAsync: promises.writeAtomic,
  releaseIfOwnedAsync: promises.releaseIfOwned,
  reclaimIfStaleAsync: promises.reclaimIfStale,
  processAliveAsync: promises.processAlive,
};
