// Behaviour of a module patched by the LF303 fix, run with `node --test`.
// LF_MODULE: the patched module; LF_CASE: which case it is. process.kill is
// replaced for the probe so that each errno can be produced as any user:
// EPERM reads as alive, ESRCH and other errors keep the old "dead" verdict.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const loaded = await import(pathToFileURL(process.env.LF_MODULE).href);
const api = { ...loaded.default, ...loaded }; // CommonJS exports arrive as the default

// Each case's verdict for a pid as "alive" / "dead" (and any side effects).
const CASES = {
  lf303_plain: (pid) => (api.isRunning(pid) ? "alive" : "dead"),
  lf303_oneline: (pid) => (api.alive(pid) ? "alive" : "dead"),
  lf303_arrow: (pid) => (api.probe(pid) === true ? "alive" : api.probe(pid) === null ? "dead" : "?"),
  lf303_method: (pid) => (new api.Lock(pid).ownerAlive() ? "alive" : "dead"),
  lf303_assign: (pid) => (api.survey([pid])[pid] ? "alive" : "dead"),
  lf303_read_first: (pid) => (api.ownerAlive(pid) ? "alive" : "dead"),
  lf303_fallthrough: (pid) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lf303-"));
    const pidfile = path.join(dir, "daemon.pid");
    fs.writeFileSync(pidfile, String(pid));
    const r = api.reapPidfile(pidfile, pid);
    const kept = fs.existsSync(pidfile);
    fs.rmSync(dir, { recursive: true, force: true });
    if (r === "running" && kept) return "alive";
    if (r === "reaped" && !kept) return "dead";
    return "? " + r + " " + kept;
  },
};
const verdict = CASES[process.env.LF_CASE];

function withKill(code, fn) {
  const real = process.kill;
  process.kill = (pid, sig) => {
    assert.equal(sig, 0);
    if (code) throw Object.assign(new Error("kill " + code), { code, syscall: "kill" });
    return true;
  };
  try {
    return fn();
  } finally {
    process.kill = real;
  }
}

test("a live process reads as alive", () => {
  assert.equal(verdict(process.pid), "alive");
  assert.equal(withKill(null, () => verdict(4242)), "alive");
});

test("EPERM (another user's process) reads as alive", () => {
  assert.equal(withKill("EPERM", () => verdict(4242)), "alive");
});

test("ESRCH reads as dead, as before", () => {
  assert.equal(withKill("ESRCH", () => verdict(4242)), "dead");
  const child = spawnSync(process.execPath, ["-e", "0"]);
  assert.equal(verdict(child.pid), "dead"); // a real exited (and reaped) child
});

test("other errors keep the old verdict", () => {
  assert.equal(withKill("EINVAL", () => verdict(4242)), "dead");
});
