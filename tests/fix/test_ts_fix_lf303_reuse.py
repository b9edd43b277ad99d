"""LF303's TS/JS fix for a probe that trusts a pid read from a file
(tests/fix/ts/lf303_reuse/cases/<case>.in): `process.kill(pid, 0)` becomes the
vendored lockrt.cjs's `killProbeSync(pid, FILE)`, the same probe that also
throws ESRCH for a live process that started after FILE was last written
(another process under the owner's reused pid).

`lockfix fix --diff` must emit tests/fix/ts/lf303_reuse/golden/<case>.diff
byte for byte (the vendored lockrt.cjs kept out of it); the patch applies,
equals what --apply writes, parses (`node --check` for JavaScript), and a
second run has nothing to do. decline_* cases keep the finding with the
reason.

Real processes through pidlock.cjs's own acquire(): a lock recording the pid
of a live process that started after the lock was written is taken over
patched and not as written; a lock its live holder wrote stays held either
way.

Set LOCKFIX_REGEN_GOLDEN=1 to write GOLDEN.new beside each golden file that differs, then
review and accept them with scripts/review-golden."""

import os
import shutil
import subprocess
import sys
import time

import pytest

from conftest import SRC, check_golden, lockfix, need_tool, read, run, split_vendored

CASES_DIR = os.path.join(SRC, "tests", "fix", "ts", "lf303_reuse", "cases")
GOLDEN_DIR = os.path.join(SRC, "tests", "fix", "ts", "lf303_reuse", "golden")
VENDOR = os.path.join(SRC, "runtime", "node", "vendor")
CASES = sorted(f[: -len(".in")] for f in os.listdir(CASES_DIR) if f.endswith(".in"))
DECLINED = {
    "decline_param.js": "decline_param.js:11:5: LF303 not fixed: the pid is read from a file whose path the probe "
    "cannot name again (a parameter of another function, a computed path): the fix compares the process's start "
    "with that file's last write",
}
FIXED = [c for c in CASES if c not in DECLINED]


def stage(tmp_path, case, name="work"):
    work = tmp_path / name
    work.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".in"), work / case)
    return work


@pytest.mark.parametrize("case", CASES)
def test_golden_patch_or_reason(tmp_path, case):
    work = stage(tmp_path, case)
    proc = lockfix(["fix", case, "--diff"], work)
    if case in DECLINED:
        assert proc.stdout == b""
        assert DECLINED[case] in proc.stderr.decode().splitlines()
        return
    assert proc.returncode == 0, proc.stderr.decode()
    rewrite, created = split_vendored(proc.stdout)
    check_golden(os.path.join(GOLDEN_DIR, case + ".diff"), rewrite)
    assert created["lockrt.cjs"] == read(os.path.join(VENDOR, "lockrt.cjs"))
    if case.endswith((".ts", ".mts", ".cts", ".tsx")):
        assert created["lockrt.d.cts"] == read(os.path.join(VENDOR, "lockrt.d.cts"))


@pytest.mark.parametrize("case", FIXED)
def test_patch_applies_parses_and_is_idempotent(tmp_path, case):
    need_tool("git")
    work = stage(tmp_path, case)
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(lockfix(["fix", case, "--diff"], work, 0).stdout)
    run(["git", "apply", "--unsafe-paths", str(patch_file)], work, 0)
    other = stage(tmp_path, case, "apply")
    lockfix(["fix", case, "--apply"], other, 0)
    assert read(other / case) == read(work / case)
    if case.endswith((".js", ".cjs", ".mjs")):
        run([need_tool("node"), "--check", case], work, 0)
    assert lockfix(["fix", case, "--diff"], work, 0).stdout == b""
    assert b"LF303" not in lockfix(["scan", case], work).stdout


TRY = """
const m = require(process.argv[1]);
console.log(m.acquire(process.argv[2]) ? 'took' : 'busy');
"""


def acquire(module, lock):
    out = subprocess.run([need_tool("node"), "-e", TRY, str(module), str(lock)], capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr.decode()
    return out.stdout.decode().strip()


@pytest.mark.parametrize("fixed", [False, True])
def test_a_reused_pid_is_not_the_holder_only_patched(tmp_path, fixed):
    work = stage(tmp_path, "pidlock.cjs", "fixed" if fixed else "orig")
    if fixed:
        lockfix(["fix", "pidlock.cjs", "--apply"], work, 0)
        assert b"killProbeSync(pid, lock)" in read(work / "pidlock.cjs")
    module = work / "pidlock.cjs"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        time.sleep(1.2)
        lock = tmp_path / "held.lock"
        lock.write_text(str(sleeper.pid))  # written by the live process with that pid (after it started)
        assert acquire(module, lock) == "busy"
        reused = tmp_path / "reused.lock"
        reused.write_text(str(sleeper.pid))
        old = time.time() - 3600
        os.utime(reused, (old, old))  # written an hour before that process started: its pid was reused
        assert acquire(module, reused) == ("took" if fixed else "busy")
    finally:
        sleeper.kill()
        sleeper.wait()
