"""LF302's Python fix, an UNSAFE fix (tests/fix/lf302/cases/<case>.in): an age
test of a lock that records its holder's pid gains "and its holder is gone"
(`C and not lockrt.holder_alive(LOCK)`, or `C or lockrt.holder_alive(LOCK)`
for a test that is true for a fresh lock), holder_alive from the vendored
runtime/python/lockrt.py.

`lockfix fix --unsafe-fixes --diff` must emit
tests/fix/lf302/golden/<case>.diff byte for byte (the vendored lockrt.py
compared whole, kept out of it). The patch applies, equals what --apply
writes, compiles, and a second run has nothing to do (the patched test is no
finding any more); without --unsafe-fixes nothing of LF302 is applied.
decline_* cases keep the finding with the reason.

A lock that records no pid is made to record it where it is created, when
that is its one create, `fd = os.open(LOCK, ... | os.O_EXCL ...)`, and nothing
reads what it holds: `os.write(fd, str(os.getpid()).encode())` follows it
(no_pid_fd.py); `with open(LOCK, "x") as f:` gains `f.write(str(os.getpid()))`
first in its body (no_pid_with.py); a create whose descriptor is not kept is
declined.

Real processes through age_mtime.py's, no_pid_fd.py's and no_pid_with.py's own
acquire()/release(): a holder is stopped (SIGSTOP) past the lock's 1 s age
limit; a second process's acquire() breaks it as written, and leaves it
patched. A holder killed with its lock
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

from conftest import SRC, check_golden, lockfix, need_tool, read, run, split_vendored

CASES_DIR = os.path.join(SRC, "tests", "fix", "lf302", "cases")
GOLDEN_DIR = os.path.join(SRC, "tests", "fix", "lf302", "golden")
BINDING = os.path.join(SRC, "runtime", "python", "lockrt.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
CASES = sorted(f[: -len(".in")] for f in os.listdir(CASES_DIR) if f.endswith(".in"))
UNSAFE = ["--unsafe-fixes"]
DECLINED = {
    "decline_no_pid.py": "10:12: LF302 not fixed: the lock records no pid of its holder, and the descriptor its "
    "exclusive open returns is not kept in a name by a statement of its own",
    "decline_negated.py": "9:12: LF302 not fixed: the age is not tested in a form the fix can orient (one `<`, `<=`, "
    "`>` or `>=` of the time, or of `clock - time`, against a limit)",
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
    proc = lockfix(["fix", case, "--diff", "--select", "LF302"] + UNSAFE, work)
    rewrite, created = split_vendored(proc.stdout)
    if case in DECLINED:
        assert lf302_left(proc.stderr, case) == ["%s:%s" % (case, DECLINED[case])]
        assert proc.stdout == b""
        return
    assert lf302_left(proc.stderr, case) == []
    check_golden(os.path.join(GOLDEN_DIR, case + ".diff"), rewrite)
    assert created == {"lockrt.py": read(BINDING)}


@pytest.mark.parametrize("case", FIXED)
def test_patch_applies_compiles_and_is_idempotent(tmp_path, case):
    need_tool("git")
    work = stage(tmp_path, case)
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(lockfix(["fix", case, "--diff", "--select", "LF302"] + UNSAFE, work).stdout)
    run(["git", "apply", "--unsafe-paths", str(patch_file)], work, 0)
    other = stage(tmp_path, case, "apply")
    lockfix(["fix", case, "--apply", "--select", "LF302"] + UNSAFE, other)
    assert read(other / case) == read(work / case)
    run([PYTHON, "-m", "py_compile", case], work, 0)
    again = lockfix(["fix", case, "--diff", "--select", "LF302"] + UNSAFE, work)
    assert again.stdout == b""
    scan = lockfix(["scan", case, "--no-config", "--select", "LF302"], work)
    assert b"LF302" not in scan.stdout  # the age test now asks about the holder


def test_without_unsafe_fixes_the_age_test_stays(tmp_path):
    work = stage(tmp_path, "age_mtime.py")
    proc = lockfix(["fix", "age_mtime.py", "--diff", "--select", "LF302"], work, 1)
    assert b"holder_alive" not in proc.stdout
    assert ("age_mtime.py:10:12: LF302 not fixed: an unsafe fix is left out: it is applied only with --unsafe-fixes "
            "(`lockfix explain LF302`, Fix safety)") in proc.stderr.decode()


# A process of age_mtime.py: take the lock through its API (1 s age limit),
# say so, wait for a line on stdin, release it.
HOLDER = r"""
import importlib, sys
sys.path.insert(0, sys.argv[1])
m = importlib.import_module(sys.argv[3])
if not m.acquire(sys.argv[2], 1.0):
    print("busy", flush=True)
    sys.exit(0)
print("held", flush=True)
sys.stdin.readline()
try:
    m.release(sys.argv[2])
except FileNotFoundError:
    print("gone", flush=True)
"""

TRY = r"""
import importlib, sys
sys.path.insert(0, sys.argv[1])
m = importlib.import_module(sys.argv[3])
print("took" if m.acquire(sys.argv[2], 1.0) else "busy")
"""


MODULES = ["age_mtime.py", "no_pid_fd.py", "no_pid_with.py"]


def module_dir(tmp_path, fixed, case="age_mtime.py"):
    module = case[: -len(".py")]
    work = stage(tmp_path, case, ("fixed-" if fixed else "orig-") + module)
    if fixed:
        lockfix(["fix", case, "--apply", "--select", "LF302"] + UNSAFE, work)
        assert b"holder_alive" in read(work / case)
    return work


def module_of(mdir):
    return mdir.name.split("-", 1)[1]


def breaker(mdir, lock):
    out = subprocess.run([PYTHON, "-c", TRY, str(mdir), str(lock), module_of(mdir)], capture_output=True, timeout=60,
                         env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert out.returncode == 0, out.stderr.decode()
    return out.stdout.decode().strip()


def start_holder(mdir, lock):
    holder = subprocess.Popen([PYTHON, "-c", HOLDER, str(mdir), str(lock), module_of(mdir)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert holder.stdout.readline().strip() == b"held"
    return holder


@pytest.mark.parametrize("case", MODULES)
@pytest.mark.parametrize("fixed", [False, True])
def test_a_stopped_holder_keeps_its_lock_only_patched(tmp_path, fixed, case):
    mdir = module_dir(tmp_path, fixed, case)
    lock = tmp_path / ("run-%d.lock" % fixed)
    holder = start_holder(mdir, lock)
    try:
        os.kill(holder.pid, signal.SIGSTOP)  # paused: a debugger, a stopped terminal, a swapped-out laptop
        time.sleep(1.3)  # held past the 1 s limit (a real age: the holder started before it wrote its lock)
        got = breaker(mdir, lock)
        if fixed:
            assert got == "busy"
            assert lock.read_text() == str(holder.pid)  # the holder's lock, untouched
        else:
            assert got == "took"  # two holders: the paused one and the breaker
            assert lock.read_text() != str(holder.pid)
    finally:
        os.kill(holder.pid, signal.SIGCONT)
        holder.stdin.write(b"\n")
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()


@pytest.mark.parametrize("case", MODULES)
def test_patched_still_breaks_a_dead_holders_lock(tmp_path, case):
    mdir = module_dir(tmp_path, True, case)
    lock = tmp_path / "dead.lock"
    holder = start_holder(mdir, lock)
    holder.kill()  # crashed with its lock left behind
    holder.wait(timeout=30)
    holder.stdout.close()
    holder.stdin.close()
    assert breaker(mdir, lock) == "busy"  # young: the age still decides, as before
    time.sleep(1.3)
    assert breaker(mdir, lock) == "took"


def test_patched_breaks_a_lock_whose_pid_was_reused(tmp_path):
    """The lock records the pid of a live process: its holder when it started
    before the lock was written, another process under a reused pid when it
    started after."""
    mdir = module_dir(tmp_path, True)
    lock = tmp_path / "reused.lock"
    sleeper = subprocess.Popen([PYTHON, "-c", "import time; time.sleep(60)"])
    try:
        time.sleep(1.5)
        lock.write_text(str(sleeper.pid))
        old = time.time() - 1.2
        os.utime(str(lock), (old, old))  # older than the 1 s limit, written after the sleeper started
        assert breaker(mdir, lock) == "busy"
        old = time.time() - 3600
        os.utime(str(lock), (old, old))  # an hour old: written before the process with that pid started
        assert breaker(mdir, lock) == "took"
    finally:
        sleeper.kill()
        sleeper.wait()
