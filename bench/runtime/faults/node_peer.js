'use strict';
// npm lock libraries under fault injection (driven by faults.py; not a test).
//   node_peer.js LIB hold LOCK                 acquire, print "held <pid>", wait for stdin EOF
//   node_peer.js LIB try LOCK TIMEOUT_S [--occ MARKER]      as py_peer.py
//   node_peer.js LIB successor LOCK TIMEOUT_S
//       the lock at LOCK is stale (its holder is gone); just before the library
//       removes what it judged stale, a successor takes the lock (simulated by
//       replacing the lock object with a fresh one). Prints "acquired <ms>
//       successor-removed" when the library deleted the successor's lock and
//       took it (two holders), "acquired <ms> successor-kept", or "timeout <ms>".
// LIB: proper-lockfile (stale 2000 ms, its minimum; update 1000 ms)
//      lockfile        (npm lockfile; stale 2000 ms)
// NODE_PATH must reach the npm tools (faults.py points it at build/tools/node_modules).
const fs = require('node:fs');

const [lib, cmd, lockPath, timeoutArg] = process.argv.slice(2);
const occIndex = process.argv.indexOf('--occ');
const occ = occIndex > 0 ? process.argv[occIndex + 1] : null;
const timeoutMs = Number(timeoutArg || 60) * 1000;
const STALE = 2000;

// The path each library actually creates for LOCK.
const lockObject = lib === 'proper-lockfile' ? `${lockPath}.lock` : lockPath;

function acquire(fsImpl) {
  // Resolves to a release function, or null on timeout.
  if (lib === 'proper-lockfile') {
    const lockfile = require('proper-lockfile');
    const retries = Math.max(1, Math.floor(timeoutMs / 50));
    return lockfile.lock(lockPath, {
      realpath: false, stale: STALE, update: 1000, fs: fsImpl || fs,
      retries: { retries, minTimeout: 50, maxTimeout: 50, factor: 1 },
      onCompromised: (err) => { process.stdout.write(`compromised ${err.message}\n`); },
    }).catch((err) => { if (err.code === 'ELOCKED') return null; throw err; });
  }
  if (lib === 'lockfile') {
    const lockfile = require('lockfile');
    return new Promise((resolve, reject) => {
      lockfile.lock(lockPath, { wait: timeoutMs, pollPeriod: 50, stale: STALE }, (err) => {
        if (err && err.code === 'EEXIST') resolve(null);
        else if (err) reject(err);
        else resolve(() => new Promise((r) => lockfile.unlock(lockPath, r)));
      });
    });
  }
  throw new Error(`node_peer: unknown lib ${lib}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const start = Date.now();
  if (cmd === 'hold') {
    const release = await acquire();
    if (!release) { process.stdout.write('timeout\n'); process.exit(3); }
    process.stdout.write(`held ${process.pid}\n`);
    process.stdin.resume();
    process.stdin.on('end', async () => { await release(); process.exit(0); });
    return;
  }
  if (cmd === 'successor') {
    // Just before the library removes the lock it judged stale, a successor
    // takes the lock: the stale object is replaced by a fresh one. What the
    // library's removal call then does to the successor is recorded.
    let replaced = false;
    let successorRemoved = null;
    const replaceWithSuccessor = () => {
      replaced = true;
      if (lib === 'proper-lockfile') {
        fs.rmdirSync(lockObject);
        fs.mkdirSync(lockObject);
      } else {
        fs.unlinkSync(lockObject);
        fs.writeFileSync(lockObject, 'successor', { flag: 'wx' });
      }
    };
    const wrap = (real) => (p, ...rest) => {
      if (p !== lockObject || replaced) return real(p, ...rest);
      replaceWithSuccessor();
      const cb = rest.pop();
      return real(p, ...rest, (err, ...more) => { successorRemoved = !err; cb(err, ...more); });
    };
    let fsImpl;
    if (lib === 'proper-lockfile') {
      fsImpl = { ...fs, rmdir: wrap(fs.rmdir.bind(fs)) };
    } else {
      fs.unlink = wrap(fs.unlink.bind(fs));
    }
    const release = await acquire(fsImpl);
    const ms = Date.now() - start;
    if (!release) { process.stdout.write(`timeout ${ms}\n`); return; }
    const verdict = !replaced ? 'no-stale-judgement' : successorRemoved ? 'successor-removed' : 'successor-kept';
    process.stdout.write(`acquired ${ms} ${verdict}\n`);
    await release();
    return;
  }
  let release;
  try {
    release = await acquire();
  } catch (err) {
    process.stdout.write(`error ${Date.now() - start} ${err.code || ''} ${err.message}\n`);
    return;
  }
  const ms = Date.now() - start;
  if (!release) { process.stdout.write(`timeout ${ms}\n`); return; }
  let double = false;
  if (occ) {
    try {
      fs.closeSync(fs.openSync(occ, 'wx'));
    } catch (err) {
      if (err.code === 'EEXIST') double = true; else throw err;
    }
    await sleep(50);
    if (!double) fs.unlinkSync(occ);
  }
  process.stdout.write(`acquired ${ms}${double ? ' DOUBLE' : ''}\n`);
  await release();
}

main().catch((err) => { process.stdout.write(`error ${err.code || ''} ${err.message}\n`); });
