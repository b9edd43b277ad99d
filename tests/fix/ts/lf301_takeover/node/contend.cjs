'use strict';
// One real process of the LF301 takeover contention test
// (test_ts_fix_lf301_takeover.py), through the case module stat_age.cjs
// (as written, or as `lockfix fix` patched it):
//   node contend.cjs <module> <lock> <cs-dir> <iterations> <staleMs> <breakPauseMs> <holdMs> <abandonEvery>
// Takes the module's lock `iterations` times. Inside, it marks the critical
// section with an exclusive mkdir of <cs-dir>: finding it there means another
// process holds the lock at the same time (an overlap). Every
// <abandonEvery>-th holder leaves as if it crashed: it leaves the critical
// section but not the lock, whose mtime it sets far in the past (a lock
// abandoned long ago), so the others judge it stale and race to break it;
// each breaker pauses for a random time up to breakPauseMs between its look
// and its removal. Prints {"acquired":..,"overlaps":..,"abandoned":..}.
const fs = require('fs');

const [modulePath, lock, cs, iterations, staleMs, breakPauseMs, holdMs, abandonEvery] = process.argv.slice(2);
const { tryLock, unlock } = require(modulePath);
const cell = new Int32Array(new SharedArrayBuffer(4));
const nap = (ms) => Atomics.wait(cell, 0, 0, ms);

let acquired = 0, overlaps = 0, abandoned = 0;
const deadline = Date.now() + 60000;
while (acquired < Number(iterations) && Date.now() < deadline) {
  if (!tryLock(lock, Number(staleMs), Math.random() * Number(breakPauseMs))) {
    nap(1 + Math.random() * 3);
    continue;
  }
  acquired++;
  let own = true;
  try {
    fs.mkdirSync(cs);
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
    overlaps++;
    own = false;
  }
  nap(Number(holdMs));
  if (own) fs.rmdirSync(cs);
  if (acquired % Number(abandonEvery) === 0) {
    const old = new Date(Date.now() - 100 * Number(staleMs));
    try { fs.utimesSync(lock, old, old); } catch { /* gone */ }
    abandoned++;
  } else {
    try { unlock(lock); } catch { /* gone */ }
  }
}
process.stdout.write(JSON.stringify({ acquired, overlaps, abandoned }) + '\n');
