'use strict';
// Node side of bench/runtime (a benchmark, not a test).
//   node_bench.js uncontended --method M --lock PATH [--seconds S]
//   node_bench.js contended   --method M --lock PATH --counter PATH --ops K --go PATH
// Output as py_bench.py. Methods:
//   lockrt               lockrt.exclusiveLock + release (sync form)
//   lockrt-promise       await lockrt.promises.exclusiveLock + release
//   lockrt-lockfile      sync form, strategy 'lockfile'
//   proper-lockfile      lockSync + release (uncontended); await lock() with retries (contended)
//   proper-lockfile-async await lock() + await release()
//   lockfile             npm lockfile: lockSync + unlockSync (uncontended); lock with wait (contended)
// NODE_PATH must reach the npm tools (run.sh points it at build/tools/node_modules).
const fs = require('node:fs');
const path = require('node:path');

function parseArgs(argv) {
  const out = { mode: argv[0], seconds: '0.3', ops: '500' };
  for (let i = 1; i < argv.length; i++) out[argv[i].slice(2)] = argv[++i];
  return out;
}

const args = parseArgs(process.argv.slice(2));
const lockPath = args.lock;

function makeCycle(method, contended) {
  return makeCycleFor(method, lockPath, contended);
}

function makeCycleFor(method, lockPath, contended = false) {
  // Returns an async-or-sync function (acquire) -> release function.
  if (method.startsWith('lockrt')) {
    const lockrt = require(path.join(__dirname, '..', '..', 'runtime', 'node', 'index.js'));
    const opts = { timeout: 60000, strategy: method === 'lockrt-lockfile' ? 'lockfile' : undefined };
    if (method === 'lockrt-promise') {
      return { async: true, acquire: async () => { const h = await lockrt.promises.exclusiveLock(lockPath, opts); return () => h.release(); } };
    }
    return { async: false, acquire: () => { const h = lockrt.exclusiveLock(lockPath, opts); return () => h.release(); } };
  }
  if (method.startsWith('proper-lockfile')) {
    const lockfile = require('proper-lockfile');
    // realpath:false: the locked file need not exist; stale 10 s (its minimum is 2 s).
    const base = { realpath: false, stale: 10000 };
    if (method === 'proper-lockfile' && !contended) {
      return { async: false, acquire: () => lockfile.lockSync(lockPath, base) };
    }
    const opts = contended ? { ...base, retries: { retries: 100000, minTimeout: 1, maxTimeout: 50, factor: 2 } } : base;
    return { async: true, acquire: async () => { const release = await lockfile.lock(lockPath, opts); return () => release(); } };
  }
  if (method === 'lockfile') {
    const lockfile = require('lockfile');
    const file = `${lockPath}.npmlock`;
    if (!contended) return { async: false, acquire: () => { lockfile.lockSync(file); return () => lockfile.unlockSync(file); } };
    return {
      async: true,
      acquire: () => new Promise((resolve, reject) => lockfile.lock(file, { wait: 60000, pollPeriod: 1 },
        (err) => (err ? reject(err) : resolve(() => lockfile.unlockSync(file))))),
    };
  }
  throw new Error(`node_bench: unknown method ${method}`);
}

const nowS = () => Number(process.hrtime.bigint()) / 1e9;

async function uncontended() {
  const cycle = makeCycle(args.method, false);
  const once = cycle.async ? async () => { const r = await cycle.acquire(); await r(); } : () => { cycle.acquire()(); };
  for (let i = 0; i < 100; i++) await once();
  let ops = 0;
  const start = nowS();
  const deadline = start + Number(args.seconds);
  let now;
  for (;;) {
    if (cycle.async) for (let i = 0; i < 50; i++) await once();
    else for (let i = 0; i < 50; i++) once();
    ops += 50;
    now = nowS();
    if (now >= deadline) break;
  }
  console.log(JSON.stringify({ method: args.method, ns_per_op: ((now - start) / ops) * 1e9, ops }));
}

// Every method in this one process, in short alternating batches for --seconds
// in total; the fastest batch of each counts (load spikes hit all alike).
async function uncontendedAll() {
  const methods = args.method.split(',');
  const onces = {};
  for (const m of methods) {
    const cycle = makeCycleFor(m, `${lockPath}-${m}`);
    onces[m] = cycle.async ? { async: true, f: async () => { const r = await cycle.acquire(); await r(); } }
      : { async: false, f: () => { cycle.acquire()(); } };
    for (let i = 0; i < 50; i++) await onces[m].f();
  }
  const best = Object.fromEntries(methods.map((m) => [m, Infinity]));
  const deadline = nowS() + Number(args.seconds);
  while (nowS() < deadline) {
    for (const m of methods) {
      const { async, f } = onces[m];
      const batch = m.startsWith('proper-lockfile') ? 10 : 100;
      const t0 = nowS();
      if (async) for (let i = 0; i < batch; i++) await f();
      else for (let i = 0; i < batch; i++) f();
      best[m] = Math.min(best[m], ((nowS() - t0) / batch) * 1e9);
    }
  }
  console.log(JSON.stringify({ ns_per_op: best }));
}

async function contended() {
  const cycle = makeCycle(args.method, true);
  const fd = fs.openSync(args.counter, 'r+');
  const buf = Buffer.alloc(32);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  while (!fs.existsSync(args.go)) Atomics.wait(sleeper, 0, 0, 0.5);
  const ops = Number(args.ops);
  const start = Number(process.hrtime.bigint()) / 1e9;
  for (let i = 0; i < ops; i++) {
    const release = cycle.async ? await cycle.acquire() : cycle.acquire();
    const n = fs.readSync(fd, buf, 0, 32, 0);
    const value = Number(buf.toString('latin1', 0, n) || '0');
    fs.writeSync(fd, String(value + 1).padStart(20, '0'), 0);
    await release();
  }
  const end = Number(process.hrtime.bigint()) / 1e9;
  fs.closeSync(fd);
  console.log(JSON.stringify({ method: args.method, start, end }));
}

({ uncontended, 'uncontended-all': uncontendedAll, contended })[args.mode]().catch((err) => {
  console.error(err.stack);
  process.exit(1);
});
