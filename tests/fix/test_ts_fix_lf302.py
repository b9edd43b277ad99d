"""LF302's TS/JS fix, an UNSAFE fix (tests/fix/ts/lf302/cases/<case>.in): an
age test of a lock file that records its holder's pid gains "and its holder is
gone" (`C && !holderAliveSync(LOCK)`, or `C || holderAliveSync(LOCK)` for a
test that is true for a fresh lock), holderAliveSync from the vendored
lockrt.cjs.

`lockfix fix --unsafe-fixes --diff` must emit tests/fix/ts/lf302/golden/<case>.diff
byte for byte (the vendored lockrt.cjs kept out of it). The patch applies,
equals what --apply writes, passes `node --check`, and a second run has
nothing to do; without --unsafe-fixes nothing of LF302 is applied. decline_*
cases keep the finding with the reason.

A lock that records no pid is made to record it where it is created, when
that is its one exclusive create and nothing reads what it holds: the empty
data of `writeFileSync(lock, "", { flag: "wx" })` becomes String(process.pid)
(no_pid_data.cjs), and `writeSync(fd, String(process.pid))` follows a kept
`fd = openSync(lock, "wx")` (no_pid_fd.cjs), and `await h.writeFile(String(
process.pid))` a kept `h = await open(lock, O_CREAT | O_EXCL | ...)`
(no_pid_handle.mjs); a lock whose create writes something else (a time), or
that is created in more than one place (a callback open beside a sync one,
npm's lockfile: patching one would leave a second run something to do), is
declined.

Real processes through each fixed module's own acquire()/release()
(age_name.cjs, no_pid_data.cjs, no_pid_fd.cjs): a holder is stopped (SIGSTOP)
past the lock's 1 s age limit; a second process's acquire() breaks it as
written, and leaves it patched. A holder killed with its lock
left behind, and a lock recording the pid of a live process that started
after the lock was written (a reused pid), are still broken patched.

Set LOCKFIX_REGEN_GOLDEN=1 to write GOLDEN.new beside each golden file that differs, then
review and accept them with scripts/review-golden."""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from conftest import SRC, check_golden, diff_and_apply_agree, lockfix, need_tool, read, run, split_vendored

CASES_DIR = os.path.join(SRC, "tests", "fix", "ts", "lf302", "cases")
GOLDEN_DIR = os.path.join(SRC, "tests", "fix", "ts", "lf302", "golden")
VENDOR = os.path.join(SRC, "runtime", "node", "vendor")
CASES = sorted(f[: -len(".in")] for f in os.listdir(CASES_DIR) if f.endswith(".in"))
UNSAFE = ["--unsafe-fixes"]
DECLINED = {
    "decline_no_pid.js": "9:9: LF302 not fixed: the lock records no pid of its holder, and its create writes a value "
    "the fix would replace (not a literal)",
    "decline_dir.cjs": "11:9: LF302 not fixed: the lock is a directory: the pid its holder records is in a file the "
    "fix does not know",
    "decline_template_time.cjs": "8:9: LF302 not fixed: the lock records no pid of its holder, and its create writes "
    "a value the fix would replace (not a literal)",
    "decline_two_creates.js": "20:9: LF302 not fixed: the lock records no pid of its holder, and it is not created "
    "in exactly one place in this module the fix could make record it",
}
FIXED = [c for c in CASES if c not in DECLINED]


def stage(tmp_path, case, name="work"):
    work = tmp_path / name
    work.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".in"), work / case)
    return work


def lf302_left(stderr, case):
    return [l for l in stderr.decode().splitlines() if l.startswith(case + ":") and " LF302 not fixed: " in l]


@pytest.mark.parametrize("case", CASES)
def test_golden_patch_or_reason(tmp_path, case):
    work = stage(tmp_path, case)
    proc = lockfix(["fix", case, "--diff"] + UNSAFE, work)
    rewrite, created = split_vendored(proc.stdout)
    if case in DECLINED:
        assert lf302_left(proc.stderr, case) == ["%s:%s" % (case, DECLINED[case])]
        assert b"holderAliveSync" not in rewrite
        return
    assert lf302_left(proc.stderr, case) == []
    check_golden(os.path.join(GOLDEN_DIR, case + ".diff"), rewrite)
    assert created["lockrt.cjs"] == read(os.path.join(VENDOR, "lockrt.cjs"))


@pytest.mark.parametrize("case", FIXED)
def test_patch_applies_parses_and_is_idempotent(tmp_path, case):
    work = diff_and_apply_agree(tmp_path, case, stage, UNSAFE)
    run([need_tool("node"), "--check", case], work, 0)
    again = lockfix(["fix", case, "--diff"] + UNSAFE, work)
    assert again.stdout == b""
    scan = lockfix(["scan", case], work)
    assert b"LF302" not in scan.stdout  # the age test now asks about the holder


def test_without_unsafe_fixes_the_age_test_stays(tmp_path):
    work = stage(tmp_path, "age_name.cjs")
    proc = lockfix(["fix", "age_name.cjs", "--diff"], work)
    assert b"holderAliveSync" not in split_vendored(proc.stdout)[0]
    assert ("age_name.cjs:13:7: LF302 not fixed: an unsafe fix is left out: it is applied only with --unsafe-fixes "
            "(`lockfix explain LF302`, Fix safety)") in proc.stderr.decode()


HOLDER = """
const m = require(process.argv[1]);
const lock = process.argv[2];
if (!m.acquire(lock, 1000)) { console.log('busy'); process.exit(0); }
console.log('held');
process.stdin.once('data', () => { try { m.release(lock); } catch (e) { console.log(e.code); } console.log('released'); process.exit(0); });
"""

TRY = """
const m = require(process.argv[1]);
console.log(m.acquire(process.argv[2], 1000) ? 'took' : 'busy');
"""


MODULES = ["age_name.cjs", "no_pid_data.cjs", "no_pid_fd.cjs"]


def module_dir(tmp_path, fixed, case="age_name.cjs"):
    work = stage(tmp_path, case, "fixed" if fixed else "orig")
    if fixed:
        lockfix(["fix", case, "--apply"] + UNSAFE, work)
        assert b"holderAliveSync" in read(work / case)
    return work / case


def age(path, seconds=3600):
    old = time.time() - seconds
    os.utime(path, (old, old))


def breaker(module, lock):
    out = subprocess.run([need_tool("node"), "-e", TRY, str(module), str(lock)], capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr.decode()
    return out.stdout.decode().strip()


@pytest.mark.parametrize("case", MODULES)
@pytest.mark.parametrize("fixed", [False, True])
def test_a_stopped_holder_keeps_its_lock_only_patched(tmp_path, fixed, case):
    module = module_dir(tmp_path, fixed, case)
    lock = tmp_path / ("run-%d.lock" % fixed)
    holder = subprocess.Popen([need_tool("node"), "-e", HOLDER, str(module), str(lock)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline().strip() == b"held"
        os.kill(holder.pid, signal.SIGSTOP)  # paused: a debugger, a stopped terminal, a swapped-out laptop
        time.sleep(1.3)  # held past the 1 s limit (a real age: the holder started before it wrote its lock)
        got = breaker(module, lock)
        if fixed:
            assert got == "busy"
            assert lock.read_text() == str(holder.pid)  # the holder's lock, untouched (recording its pid)
        else:
            assert got == "took"  # two holders: the paused one and the breaker
            assert lock.read_text() != str(holder.pid)
            if case != "age_name.cjs":
                assert lock.read_text() == ""  # as written, the lock names no holder
    finally:
        os.kill(holder.pid, signal.SIGCONT)
        holder.stdin.write(b"\n")
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()


@pytest.mark.parametrize("case", MODULES)
def test_patched_still_breaks_a_dead_holders_lock(tmp_path, case):
    module = module_dir(tmp_path, True, case)
    lock = tmp_path / "dead.lock"
    holder = subprocess.Popen([need_tool("node"), "-e", HOLDER, str(module), str(lock)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    assert holder.stdout.readline().strip() == b"held"
    holder.kill()  # crashed with its lock left behind
    holder.wait(timeout=30)
    holder.stdout.close()
    holder.stdin.close()
    assert breaker(module, lock) == "busy"  # young: the age still decides, as before
    time.sleep(1.3)
    assert breaker(module, lock) == "took"


def test_patched_breaks_a_lock_whose_pid_was_reused(tmp_path):
    """The lock records the pid of a live process: its holder when it started
    before the lock was written, another process under a reused pid when it
    started after."""
    module = module_dir(tmp_path, True)
    lock = tmp_path / "reused.lock"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        time.sleep(1.5)
        lock.write_text(str(sleeper.pid))
        age(lock, 1.2)  # older than the 1 s limit, written after the sleeper started
        assert breaker(module, lock) == "busy"
        age(lock)  # an hour old: written before the process with that pid started
        assert breaker(module, lock) == "took"
    finally:
        sleeper.kill()
        sleeper.wait()
