'use strict';
/*
 * The OS lock's bounded wait inside a Node host: the sync form waits on the
 * main thread, the promise form on a libuv pool thread (when the addon hands
 * lockrt_acquire the timeout, each thread's wait is ended by its own timer). A
 * SIGURG listener (libuv installs a handler for it) makes SIGURG the host's:
 * lockrt must leave it in place, never signal it, and still honour the bound.
 *
 *   LOCKRT_NODE_ADDON=<lockrt.node> node wait_host.js <dir with index.js>
 *
 * Time bounds are hang guards, not speed checks.
 */
const assert = require('node:assert');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const lockrt = require(path.resolve(process.argv[2]));
const HANG_GUARD_MS = 20000;

/* A child Node process holding the lock through lockrt until its stdin closes. */
function hold(lockPath) {
  const code = `
    const l = require(${JSON.stringify(path.resolve(process.argv[2]))});
    const h = l.exclusiveLock(process.argv[1], { timeout: 10000 });
    if (!h) process.exit(2);
    process.stdout.write('held\\n');
    process.stdin.on('data', () => {});
    process.stdin.on('end', () => { h.release(); process.exit(0); });`;
  const child = spawn(process.execPath, ['-e', code, lockPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (b) => (String(b) === 'held\n' ? resolve(child) : reject(new Error(String(b)))));
    child.once('exit', (c) => reject(new Error(`holder exited ${c}`)));
  });
}

function letGo(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', (c) => { assert.strictEqual(c, 0); resolve(); });
    child.stdin.end();
  });
}

function timeSync(fn) {
  const t0 = process.hrtime.bigint();
  const r = fn();
  return [r, Number(process.hrtime.bigint() - t0) / 1e6];
}

async function timeAsync(fn) {
  const t0 = process.hrtime.bigint();
  const r = await fn();
  return [r, Number(process.hrtime.bigint() - t0) / 1e6];
}

async function expectTimeouts(lockPath) {
  const [a, tookSync] = timeSync(() => lockrt.exclusiveLock(lockPath, { timeout: 300 }));
  assert.strictEqual(a, null);
  assert.ok(tookSync >= 299 && tookSync < HANG_GUARD_MS, `sync wait took ${tookSync} ms`);
  const [b, tookAsync] = await timeAsync(() => lockrt.promises.exclusiveLock(lockPath, { timeout: 300 }));
  assert.strictEqual(b, null);
  assert.ok(tookAsync >= 299 && tookAsync < HANG_GUARD_MS, `promise wait took ${tookAsync} ms`);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockrt-wait-host-'));
  const lockPath = path.join(dir, 'w.lock');

  let holder = await hold(lockPath);
  await expectTimeouts(lockPath);
  // A pool-thread waiter blocked in flock() is woken by the release.
  const waiting = timeAsync(() => lockrt.promises.exclusiveLock(lockPath, { timeout: HANG_GUARD_MS }));
  setTimeout(() => letGo(holder), 200);
  const [h, took] = await waiting;
  assert.ok(h !== null && took < HANG_GUARD_MS);
  h.release();

  // SIGURG taken by the host.
  let urg = 0;
  process.on('SIGURG', () => { urg += 1; });
  holder = await hold(lockPath);
  await expectTimeouts(lockPath);
  await new Promise((r) => setTimeout(r, 100));
  assert.strictEqual(urg, 0);
  await letGo(holder);
  const again = lockrt.exclusiveLock(lockPath, { timeout: 5000 });
  assert.ok(again !== null);
  again.release();
  fs.rmSync(dir, { recursive: true, force: true });
  console.log('ok: Node host (main and pool threads) and the bounded wait');
}

main().catch((err) => { console.error(err); process.exit(1); });
