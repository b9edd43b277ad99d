'use strict';
// Lost-update worker: --iters read-modify-write increments of --key in the JSON
// counter file --file under the lock --lock (or none, for the control).
//   worker.js --file F --lock L --key K --iters M --strategy oslock|lockfile|none
//             [--go PATH] [--hold-us U] [--async]
// Exit codes: 0 done, 3 the lock was not acquired in time.
const fs = require('node:fs');
const path = require('node:path');

function parseArgs(argv) {
  const out = { async: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--async') out.async = true;
    else if (a.startsWith('--')) out[a.slice(2)] = argv[++i];
  }
  return out;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function readCounts(file) {
  let raw;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return {};
    throw err;
  }
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    return {}; // only the unlocked control can see a torn file
  }
}

function increment(file, key, holdUs) {
  const counts = readCounts(file);
  counts[key] = (counts[key] || 0) + 1;
  if (holdUs > 0) Atomics.wait(sleeper, 0, 0, holdUs / 1000); // widen the read-modify-write window
  // Unique temp + rename (like the C harness): an unlocked run loses updates to
  // stale reads, never to torn files.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(counts));
  fs.renameSync(tmp, file);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const iters = Number(args.iters);
  const holdUs = Number(args['hold-us'] || 0);
  const lockrt = args.strategy === 'none' ? null : require(path.join(__dirname, '..', 'index.js'));
  if (args.go) {
    // Start barrier: say we are ready, then wait for everyone's go, so the
    // processes really overlap (node start-up can outlast a whole run).
    fs.writeFileSync(`${args.go}.ready.${args.key}`, '');
    while (!fs.existsSync(args.go)) Atomics.wait(sleeper, 0, 0, 1);
  }
  const opts = { timeout: 120000, strategy: args.strategy };
  for (let i = 0; i < iters; i++) {
    if (lockrt === null) {
      increment(args.file, args.key, holdUs);
    } else if (args.async) {
      const ok = await lockrt.promises.withExclusiveLock(args.lock, opts, async (acquired) => {
        if (acquired) increment(args.file, args.key, holdUs);
        return acquired;
      });
      if (!ok) return 3;
    } else {
      const ok = lockrt.withExclusiveLock(args.lock, opts, (acquired) => {
        if (acquired) increment(args.file, args.key, holdUs);
        return acquired;
      });
      if (!ok) return 3;
    }
  }
  return 0;
}

main().then((code) => {
  if (code) process.stderr.write(`worker ${process.argv.join(' ')}: lock not acquired in time\n`);
  process.exitCode = code;
}, (err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exitCode = 1;
});
