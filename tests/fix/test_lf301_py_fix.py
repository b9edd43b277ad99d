"""LF301's Python fix (tests/fix/lf301/<case>.py.in): a holder's release by
name of a lock the module creates exclusively becomes lockrt.unlink_owned, and
the module's creates of that lock lockrt.open_exclusive /
lockrt.open_exclusive_file (runtime/python/lockrt.py, vendored beside the
module).

`lockfix fix --diff` must emit tests/fix/golden/lf301_<case>.diff byte for byte,
plus the creation of the vendored binding (exactly runtime/python/lockrt.py,
kept out of the golden files). The patch applies with `git apply` and `patch
-p1`, equals what --apply writes, compiles, and a second run has nothing to
do. The findings the fix does not cover stay, each with its reason (LEFT).

A stale takeover (a removal after the module judged the lock by a stat or a
read of it) becomes lockrt.unlink_judged, and the judgements the judged
drop-ins (stat_judged, getmtime_judged, open_judged, ...).

Real processes, through the module's own API:
- a holder takes the lock and is paused past the age limit (its lock's mtime is
  set back), a second process breaks it with the module's own stale takeover
  and takes it, then the first releases (release_helper_param.py: through the
  module's take/drop helpers handed the path). As written, that release deletes the
  second one's live lock; patched, the second one's lock stays, with its pid in
  it, until it releases it itself;
- sweep_helper.py's sweep() judges each lock through the module's reader
  helper, handed the path (`_record(lock_file)`), and is paused after judging
  a crashed holder's lock stale; a second sweep removes that lock and a new
  holder takes the name. As written, the first sweep then deletes the new
  holder's live lock; patched (the reader's read_text and the sweep's unlink
  bound by lockrt), it stays;
- N processes x M turns through takeover.py's acquire()/release(), where every
  fifth turn "crashes" (leaves its lock behind, old) and each breaker pauses
  20 ms between its look and its removal (the module's own hook for a
  descheduled breaker): as written, breakers that judged the same stale lock
  delete each other's fresh locks, two holders run at once and releases find
  their lock gone (reported, not asserted: a race need not show); patched,
  never, and every process still gets its turns.

Set LOCKFIX_REGEN_GOLDEN=1 to write GOLDEN.new beside each golden file that differs, then
review and accept them with scripts/review-golden."""

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from conftest import SRC, check_golden, lockfix, need_tool, read, run, split_vendored

CASES_DIR = os.path.join(SRC, "tests", "fix", "lf301")
GOLDEN_DIR = os.path.join(SRC, "tests", "fix", "golden")
BINDING = os.path.join(SRC, "runtime", "python", "lockrt.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
CASES = sorted(f[: -len(".in")] for f in os.listdir(CASES_DIR) if f.endswith(".py.in"))

EXISTENCE = ("no stat or read of the lock comes before the removal in its function or in a helper it calls first "
             "(the lock is judged by existence alone, or not at all): there is no judged object to bind the removal "
             "to")
LF302_UNSAFE = ("LF302 not fixed: an unsafe fix is left out: it is applied only with --unsafe-fixes (`lockfix "
                "explain LF302`, Fix safety)")
# What each case keeps after the fix: "line:col: rule reason" of every finding left.
LEFT = {
    "release.py": ["15:20: " + LF302_UNSAFE],
    "claim_record.py": ["20:12: LF302 not fixed: the lock records no pid of its holder, and the module reads what "
                        "it holds: a pid written into it would change what that read sees"],
    "release_forms.py": ["20:16: " + LF302_UNSAFE,
                         "33:17: LF301 not fixed: " + EXISTENCE],
    "takeover.py": ["19:20: " + LF302_UNSAFE],
    "release_helper_param.py": ["22:20: " + LF302_UNSAFE],
    "takeover_helper.py": ["18:9: LF303 not fixed: pid reuse needs the owner's start time, recorded by whoever "
                           "writes the pid (lockrt's owner record does: lockrt.process_alive)"],
    "decline_lock_dir.py": ["14:16: LF302 not fixed: the lock is a directory: the pid its holder records is in a "
                            "file the fix does not know",
                            "15:17: LF301 not fixed: the lock is a directory (removed with rmdir or rmtree): the "
                            "drop-ins bind files only",
                            "20:5: LF301 not fixed: the lock is created at line 11 by a directory or link create "
                            "(mkdir, link, symlink): the drop-ins bind files made by os.open or open(p, \"x\")"],
    "takeover_failed_read.py": ["10:9: LF303 not fixed: pid reuse needs the owner's start time, recorded by "
                                "whoever writes the pid (lockrt's owner record does: lockrt.process_alive)",
                                "30:17: LF301 not fixed: the removal follows a failed read of the lock: a lock its "
                                "owner is still writing reads as corrupt and stays unchanged until that write lands, "
                                "so binding the removal to what was read would still delete it; whether to wait, "
                                "retry the read or fail is the code owner's choice"],
    "takeover_branches.py": ["12:12: " + LF302_UNSAFE,
                             "18:17: LF303 not fixed: pid reuse needs the owner's start time, recorded by whoever "
                             "writes the pid (lockrt's owner record does: lockrt.process_alive)"],
    "flocked_pidfile.py": [],
    "decline_read_answered_none.py": ["28:9: LF301 not fixed: the removal follows a failed read of the lock: a lock "
                                      "its owner is still writing reads as corrupt and stays unchanged until that "
                                      "write lands, so binding the removal to what was read would still delete it; "
                                      "whether to wait, retry the read or fail is the code owner's choice"],
    "decline_retaken_claim.py": ["13:12: " + LF302_UNSAFE,
                                 "22:5: LF301 not fixed: line 16 takes the lock over by writing its claim over it in "
                                 "place (the same inode): a removal bound to the inode would still delete the new "
                                 "holder's lock, so the fix would change nothing"],
    "decline_unjudged_way.py": ["25:17: " + LF302_UNSAFE,
                                "26:9: LF301 not fixed: the removal can be reached without a look at the lock since "
                                "its function was entered (the look at line 25 is skipped on some way to it): there "
                                "it would meet the judgement of an earlier call, of a lock since replaced, and leave "
                                "behind a lock the module means to delete"],
    "sweep_helper.py": ["43:32: " + LF302_UNSAFE],
    "flocked_forms.py": [],
    "decline_flocked_handle.py": ["19:9: LF301 not fixed: the handle locked at line 8 is opened elsewhere (a caller "
                                  "passes it, or a helper returns it): the fix cannot tell that every handle it is "
                                  "given comes from the lock file's path"],
}
FIXED = [c for c in CASES if not c.startswith("decline_")]



def stage(tmp_path, case, name="work"):
    work = tmp_path / name
    work.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".in"), work / case)
    return work


def left_lines(stderr, case, shift=0):
    """The findings left, as "line:col: ..." with the line moved back by `shift`
    (the import line a patched file gained)."""
    out = []
    for l in stderr.decode().splitlines():
        if l.startswith(case + ":"):
            line, rest = l[len(case) + 1:].split(":", 1)
            out.append("%d:%s" % (int(line) - shift, rest))
    return sorted(out)


@pytest.mark.parametrize("case", CASES)
def test_golden_patch_and_what_is_left(tmp_path, case):
    work = stage(tmp_path, case)
    proc = lockfix(["fix", case, "--diff"], work)
    assert left_lines(proc.stderr, case) == sorted(LEFT[case])
    rewrite, created = split_vendored(proc.stdout)
    if case not in FIXED:
        assert proc.stdout == b""
        return
    check_golden(os.path.join(GOLDEN_DIR, "lf301_%s.diff" % case), rewrite)
    assert created == {"lockrt.py": read(BINDING)}


@pytest.mark.parametrize("case", FIXED)
def test_patch_applies_compiles_and_is_idempotent(tmp_path, case):
    need_tool("git")
    need_tool("patch")
    work = stage(tmp_path, case)
    left = 1 if LEFT[case] else 0  # the exit code: findings left without a fix, or none
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(lockfix(["fix", case, "--diff"], work, left).stdout)
    run(["git", "apply", "--check", "--unsafe-paths", str(patch_file)], work, 0)
    run(["patch", "-p1", "--quiet", "-i", str(patch_file)], work, 0)
    patched = read(work / case)
    other = stage(tmp_path, case, "apply")
    lockfix(["fix", case, "--apply"], other, left)
    assert read(other / case) == patched
    again = lockfix(["fix", case, "--diff"], work, left)
    assert again.stdout == b""
    assert left_lines(again.stderr, case, 1) == sorted(LEFT[case])  # what the fix does not cover is still reported
    run([PYTHON, "-m", "py_compile", case], work, 0)


# A process of the module: take the lock through its API, say so, wait for a
# line on stdin, release it through its API.
HOLDER = r"""
import os, sys
sys.path.insert(0, sys.argv[1])
import importlib
m = importlib.import_module(sys.argv[2])
take, give = sys.argv[3], sys.argv[4]
obj = m.Runner("job") if hasattr(m, "Runner") else m
for _ in range(100):  # Runner.take() breaks a stale lock and answers False: take again
    if getattr(obj, take)() is not False:
        break
else:
    sys.exit("never held")
print("held", os.getpid(), flush=True)
sys.stdin.readline()
try:
    getattr(obj, give)()
except FileNotFoundError:
    print("gone", flush=True)  # its lock was deleted under it
    sys.exit(0)
print("released", flush=True)
"""


class Holder(object):
    def __init__(self, module_dir, module, take, give, env):
        self.proc = subprocess.Popen([PYTHON, "-c", HOLDER, str(module_dir), module, take, give], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, universal_newlines=True)
        line = self.proc.stdout.readline().split()
        assert line[:1] == ["held"], line
        self.pid = int(line[1])

    def release(self):
        """"released", or "gone" when the release found no lock to remove."""
        out, _ = self.proc.communicate("go\n", timeout=60)
        assert self.proc.returncode == 0, out
        return out.strip()


def paused_holder_then_takeover(module_dir, module, take, give, lock, tmp_path):
    """What the first holder's release leaves of the second holder's lock."""
    env = dict(os.environ, JOB_LOCK=str(lock), JOB_LOCK_STALE="1", STATE_DIR=str(tmp_path / "state"),
               PYTHONDONTWRITEBYTECODE="1")
    a = Holder(module_dir, module, take, give, env)
    old = time.time() - 120
    os.utime(str(lock), (old, old))  # A paused past the age limit
    b = Holder(module_dir, module, take, give, env)  # breaks A's lock (the module's own takeover) and takes it
    assert read(lock) == str(b.pid).encode()
    assert a.release() == "released"
    left = read(lock) if os.path.exists(str(lock)) else None
    return left, b.pid, b.release(), os.path.exists(str(lock))


@pytest.mark.parametrize("module,take,give,lock_name", [
    ("release", "acquire", "release", "job.lock"),
    ("release_forms", "take", "done", "state/job.lock"),
    ("release_helper_param", "acquire", "release", "job.lock"),
])
def test_paused_holders_release_keeps_its_successors_lock(tmp_path, module, take, give, lock_name):
    case = module + ".py"
    (tmp_path / "state").mkdir()
    unpatched = stage(tmp_path, case, "unpatched")
    patched = stage(tmp_path, case, "patched")
    lockfix(["fix", case, "--apply"], patched, 1)
    assert sorted(os.listdir(str(patched))) == sorted([case, "lockrt.py"])
    lock = tmp_path / lock_name
    left, _pid, b_release, _after = paused_holder_then_takeover(unpatched, module, take, give, lock, tmp_path)
    assert left is None  # as written: the paused holder deleted its successor's live lock
    assert b_release == ("gone" if module == "release" else "released")  # (Path.unlink(missing_ok=True) is quiet)
    left, successor, b_release, after = paused_holder_then_takeover(patched, module, take, give, lock, tmp_path)
    assert left == str(successor).encode()  # patched: the successor's lock stays, with its pid
    assert b_release == "released" and not after  # ... until the successor releases it
    assert not [n for n in os.listdir(str(lock.parent)) if "lockrt-release" in n]


def test_pidfile_forms_release_their_own_lock(tmp_path):
    """start()/stop(): os.open(flags=...) and `from os import unlink`, patched: a
    holder's own release removes its pid file."""
    case = "release_forms.py"
    (tmp_path / "state").mkdir()
    patched = stage(tmp_path, case, "patched")
    lockfix(["fix", case, "--apply"], patched, 1)
    env = dict(os.environ, STATE_DIR=str(tmp_path / "state"), PYTHONDONTWRITEBYTECODE="1")
    h = Holder(patched, "release_forms", "start", "stop", env)
    assert os.path.exists(str(tmp_path / "state" / "job.pid"))
    assert h.release() == "released"
    assert os.listdir(str(tmp_path / "state")) == []


SWEEPER = r"""
import sys
sys.path.insert(0, sys.argv[1])
import sweep_helper as m
if sys.argv[2] == "acquire":
    print(m.acquire("job") is not None)
else:
    print(m.sweep())
"""


def sweep_race(module_dir, tmp_path, name):
    """A sweep paused between its look and its removal, while the lock it
    judged is swept by another process and taken by a new holder: the new
    holder's lock after the paused sweep ends (None: deleted), that holder's
    pid, and what the paused sweep said it swept."""
    run_dir = tmp_path / name
    locks = run_dir / "locks"
    run_dir.mkdir()
    env = dict(os.environ, JOB_LOCKS=str(locks), JOB_STALE_AFTER="0.3", PYTHONDONTWRITEBYTECODE="1")

    def module(what, extra=None):
        p = subprocess.Popen([PYTHON, "-c", SWEEPER, str(module_dir), what], env=dict(env, **(extra or {})),
                             stdout=subprocess.PIPE, universal_newlines=True)
        return p

    def done(p):
        out, _ = p.communicate(timeout=60)
        assert p.returncode == 0, out
        return out.strip(), p.pid

    assert done(module("acquire"))[0] == "True"  # a holder that crashed: its lock stays
    time.sleep(0.5)  # ... and goes stale
    judged, resume = run_dir / "judged", run_dir / "resume"
    paused = module("sweep", {"SWEEP_JUDGED": str(judged), "SWEEP_RESUME": str(resume)})
    deadline = time.time() + 60
    while not judged.exists():
        assert paused.poll() is None and time.time() < deadline
        time.sleep(0.01)
    assert done(module("sweep"))[0] == "1"  # another sweep removes the stale lock
    taken, holder = done(module("acquire"))  # a new holder takes the name
    assert taken == "True"
    resume.touch()
    swept, _ = done(paused)
    lock = locks / "job.lock"
    left = json.loads(read(lock).decode()) if lock.exists() else None
    return left, holder, swept


def test_sweep_judged_through_a_helper_keeps_a_new_holders_lock(tmp_path):
    unpatched = stage(tmp_path, "sweep_helper.py", "unpatched")
    patched = stage(tmp_path, "sweep_helper.py", "patched")
    lockfix(["fix", "sweep_helper.py", "--apply"], patched, 1)
    left, _holder, swept = sweep_race(unpatched, tmp_path, "run-unpatched")
    assert left is None and swept == "1"  # as written: the paused sweep deleted the new holder's live lock
    left, holder, swept = sweep_race(patched, tmp_path, "run-patched")
    assert left is not None and left["pid"] == holder  # patched: it stays, the new holder's
    assert swept == "1"  # the sweep answers as before


CONTENDER = r"""
import os, sys, time
sys.path.insert(0, sys.argv[1])
import takeover as m
marker, turns = sys.argv[2], int(sys.argv[3])
overlaps = gone = 0
for i in range(turns):
    if not m.acquire():
        sys.exit("acquire timed out")
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        mine = True
    except FileExistsError:
        overlaps += 1  # another process is inside too
        mine = False
    time.sleep(0.002)
    if mine:
        os.unlink(marker)
    if i % 5 == 4:  # crash: the lock stays behind, old
        old = time.time() - 600
        try:
            os.utime(m.LOCK, (old, old))
        except FileNotFoundError:
            pass
    else:
        try:
            m.release()
        except FileNotFoundError:
            gone += 1  # its lock was deleted under it
print(overlaps, gone)
"""

PROCS, TURNS = 6, 40


def contention(module_dir, tmp_path, name):
    run_dir = tmp_path / name
    run_dir.mkdir()
    env = dict(os.environ, JOB_LOCK=str(run_dir / "job.lock"), JOB_LOCK_STALE="5", JOB_LOCK_BREAK_PAUSE="0.02",
               PYTHONDONTWRITEBYTECODE="1")
    procs = [subprocess.Popen([PYTHON, "-c", CONTENDER, str(module_dir), str(run_dir / "inside"), str(TURNS)],
                              env=env, stdout=subprocess.PIPE, universal_newlines=True) for _ in range(PROCS)]
    overlaps = gone = 0
    for p in procs:
        out, _ = p.communicate(timeout=300)
        assert p.returncode == 0, out
        overlaps += int(out.split()[0])
        gone += int(out.split()[1])
    return overlaps, gone


def test_takeover_contention_through_the_module(tmp_path, capsys):
    unpatched = stage(tmp_path, "takeover.py", "unpatched")
    patched = stage(tmp_path, "takeover.py", "patched")
    lockfix(["fix", "takeover.py", "--apply"], patched, 1)
    before = contention(unpatched, tmp_path, "run-unpatched")
    after = contention(patched, tmp_path, "run-patched")
    with capsys.disabled():
        print("\nLF301 takeover contention (python, %d x %d, every fifth turn crashes): two holders at once %d "
              "times and %d releases finding their lock deleted as written; %d and %d patched"
              % (PROCS, TURNS, before[0], before[1], after[0], after[1]))
    assert after == (0, 0)


# flocked_pidfile.py's PidFile, N processes x M turns: each takes the pid file
# with `with PidFile(path):` (a blocking flock), notes whether another process
# is inside, and leaves (close, then remove by name). As written, a process
# waiting on the file when a holder removes it gets the lock on the removed
# inode while a newcomer locks a fresh file: two holders at once. Patched,
# never. Either way a removal can find the file gone (another process took,
# used and removed it between this one's close and its removal) and raise
# FileNotFoundError as os.remove does: counted, not asserted.
FLOCK_CONTENDER = r"""
import os, sys, time
sys.path.insert(0, sys.argv[1])
import flocked_pidfile as m
path, inside, turns = sys.argv[2], sys.argv[3], int(sys.argv[4])
overlaps = gone = 0
for _ in range(turns):
    try:
        with m.PidFile(path):
            try:
                fd = os.open(inside, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                overlaps += 1
                fd = None
            time.sleep(0.001)
            if fd is not None:
                os.close(fd)
                os.unlink(inside)
    except FileNotFoundError:
        gone += 1
print(overlaps, gone)
"""


def flock_contention(module_dir, tmp_path, name, procs=6, turns=60):
    run_dir = tmp_path / name
    run_dir.mkdir()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    ps = [subprocess.Popen([PYTHON, "-c", FLOCK_CONTENDER, str(module_dir), str(run_dir / "daemon.pid"),
                            str(run_dir / "inside"), str(turns)], env=env, stdout=subprocess.PIPE,
                           universal_newlines=True) for _ in range(procs)]
    overlaps = gone = 0
    for p in ps:
        out, _ = p.communicate(timeout=300)
        assert p.returncode == 0, out
        overlaps += int(out.split()[0])
        gone += int(out.split()[1])
    return overlaps, gone


def test_flocked_pidfile_contention_through_the_module(tmp_path, capsys):
    unpatched = stage(tmp_path, "flocked_pidfile.py", "unpatched")
    patched = stage(tmp_path, "flocked_pidfile.py", "patched")
    lockfix(["fix", "flocked_pidfile.py", "--apply"], patched, 0)
    assert "lockrt.flock_verified(" in read(patched / "flocked_pidfile.py").decode()
    before = flock_contention(unpatched, tmp_path, "run-unpatched")
    after = flock_contention(patched, tmp_path, "run-patched")
    with capsys.disabled():
        print("\nLF301 flock'ed pid file contention (python, 6 x 60): two holders at once %d times and %d removals "
              "of a file already removed as written; %d and %d patched" % (before + after))
    assert after[0] == 0
