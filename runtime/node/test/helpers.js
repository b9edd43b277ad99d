'use strict';
// Shared by the node tests: temp dirs, lock holders in other processes, and
// real-process lost-update runs.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockrt-node-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Starts holder.js; resolves once it holds the lock. */
async function startHolder(t, lockPath, strategy = 'auto') {
  const child = spawn(process.execPath, [path.join(__dirname, 'holder.js'), lockPath, strategy],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  t.after(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
  const line = await new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout });
    rl.once('line', (l) => { rl.close(); resolve(l); });
    child.once('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
  const [word, pid, heldStrategy, token] = line.split(' ');
  if (word !== 'held') throw new Error(`holder: ${line}`);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    pid: Number(pid),
    strategy: heldStrategy,
    token,
    release() { child.stdin.end(); return exited; },
    kill() { child.kill('SIGKILL'); return exited; },
  };
}

/** Wait until every worker has written `<go>.ready.<key>` (or one has exited early). */
async function waitForReady(go, keys, exits, timeoutMs = 120000) {
  let exited = false;
  Promise.race(exits).then(() => { exited = true; });
  const deadline = Date.now() + timeoutMs;
  while (!keys.every((k) => fs.existsSync(`${go}.ready.${k}`))) {
    if (exited) return; // a worker failed: let the caller report its exit
    if (Date.now() > deadline) throw new Error(`workers not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** N worker.js processes x iters increments; resolves to {counts, keys}. */
async function runWorkers(dir, procs, iters, strategy, { async = false, holdUs = 0 } = {}) {
  const file = path.join(dir, 'counter.json');
  const lock = path.join(dir, 'counter.json.lock');
  const go = path.join(dir, 'go');
  const keys = [];
  const exits = [];
  for (let i = 0; i < procs; i++) {
    const key = `node-${i}`;
    keys.push(key);
    const args = [path.join(__dirname, 'worker.js'), '--file', file, '--lock', lock, '--key', key,
      '--iters', String(iters), '--strategy', strategy, '--go', go];
    if (async) args.push('--async');
    if (holdUs) args.push('--hold-us', String(holdUs));
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    exits.push(new Promise((resolve) => child.once('exit', (code) => resolve({ key, code, err }))));
  }
  await waitForReady(go, keys, exits);
  fs.writeFileSync(go, '');
  const results = await Promise.all(exits);
  const failed = results.filter((r) => r.code !== 0);
  if (failed.length) throw new Error(failed.map((r) => `${r.key} exited ${r.code}: ${r.err}`).join('\n'));
  return { counts: JSON.parse(fs.readFileSync(file, 'utf8')), keys };
}

function loss(counts, keys, iters) {
  return {
    lost: keys.reduce((sum, k) => sum + (iters - (counts[k] || 0)), 0),
    lostKeys: keys.filter((k) => !(k in counts)),
  };
}

module.exports = { tempDir, startHolder, runWorkers, loss };
