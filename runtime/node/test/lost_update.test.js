'use strict';
// Real-process lost-update runs with Node workers: N processes x M locked
// read-modify-write increments of one JSON counter file, one key per process.
const test = require('node:test');
const assert = require('node:assert/strict');

const { tempDir, runWorkers, loss } = require('./helpers.js');

const SIZES = [[1, 50], [3, 50], [6, 40], [8, 500]];

for (const strategy of ['oslock', 'lockfile']) {
  for (const [procs, iters] of SIZES) {
    test(`${strategy} ${procs}x${iters}: no lost increments or keys`, async (t) => {
      const { counts, keys } = await runWorkers(tempDir(t), procs, iters, strategy);
      const expected = Object.fromEntries(keys.map((k) => [k, iters]));
      assert.deepEqual(counts, expected, JSON.stringify(loss(counts, keys, iters)));
    });
  }
  test(`${strategy} 6x40 through the promise form: no loss`, async (t) => {
    const { counts, keys } = await runWorkers(tempDir(t), 6, 40, strategy, { async: true });
    assert.deepEqual(counts, Object.fromEntries(keys.map((k) => [k, 40])));
  });
  test(`${strategy} 6x40 with a 500us window inside the critical section: no loss`, async (t) => {
    const { counts, keys } = await runWorkers(tempDir(t), 6, 40, strategy, { holdUs: 500 });
    assert.deepEqual(counts, Object.fromEntries(keys.map((k) => [k, 40])));
  });
}

// The same workers without the lock, with the window the C harness's control
// uses (2 ms between read and write), must lose.
for (const [procs, iters] of [[3, 50], [6, 40]]) {
  test(`unlocked control ${procs}x${iters} loses (the harness has teeth)`, async (t) => {
    const { counts, keys } = await runWorkers(tempDir(t), procs, iters, 'none', { holdUs: 2000 });
    const { lost } = loss(counts, keys, iters);
    assert.ok(lost > 0, `the unlocked control lost nothing: ${JSON.stringify(counts)}`);
  });
}
