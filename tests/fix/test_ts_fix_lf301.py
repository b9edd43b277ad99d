"""LF301's TS/JS fix (lf301_release_owned) on the cases in
tests/fix/ts/lf301/cases/<case>.<ext>.in, at least one fixed case per
extension (.ts .mts .cts .js .mjs .cjs .tsx) and cases it must decline:

- `lockfix fix --diff` shows exactly tests/fix/ts/lf301/golden/<case>.diff
  for the module (reviewed by hand), plus the creation of the vendored
  lockrt.cjs (and lockrt.d.cts beside TypeScript), byte for byte the files in
  runtime/node/vendor/; a declined case changes nothing and says why;
- every case also has a stale takeover (a removal after a look at the
  lock's age): bound to what was judged (test_ts_fix_lf301_takeover.py) where
  the judgement is a read or stat the fix can bind, else declined with its
  reason (TAKEOVER_DECLINED);
- the patch applies with `git apply` and `patch -p1`, equals what --apply
  writes, fixing again changes nothing, the fixed release and takeover are no
  longer reported and what LF301 still reports is what was declined;
  JavaScript passes `node --check`;
- the patched module runs under `node --test` (ts/lf301/node/lf301.test.mjs),
  which the unpatched module fails (it deletes a successor's lock);
- real processes: holder A takes the lock and is stopped (SIGSTOP), its lock
  ages, successor B judges it stale and takes over, A resumes and releases.
  Unpatched, A deletes B's live lock and a third process C acquires beside B;
  patched, B's lock survives byte for byte (same inode) and C is refused."""

import json
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

from conftest import SRC, check_golden, lockfix, need_tool, run

LF301_DIR = os.path.join(SRC, "tests", "fix", "ts", "lf301")
CASES_DIR = os.path.join(LF301_DIR, "cases")
GOLDEN_DIR = os.path.join(LF301_DIR, "golden")
NODE_DIR = os.path.join(LF301_DIR, "node")
VENDOR = os.path.join(SRC, "runtime", "node", "vendor")
CASES = sorted(f[: -len(".in")] for f in os.listdir(CASES_DIR) if f.endswith(".in"))
EXTS = {".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".tsx"}
TS_EXTS = {".ts", ".mts", ".cts", ".tsx"}
# The cases whose stale takeover is declined, with the reason.
TAKEOVER_DECLINED = {
    "lf301_callback_decline.js": "LF301 not fixed: a stale takeover judged by `fs.stat(PIDFILE, (statErr, st) => "
    "{...`: the fix binds the removal only to a read or stat of the same path by Node's own fs",
    # a takeover by rewriting the lock in place keeps its inode: the sweep's
    # removal and the release are both declined
    "lf301_retaken_decline.mjs": "LF301 not fixed: line 10 takes the lock over by rewriting it in place (the "
    "same inode): a removal bound to the inode would still delete the new holder's lock, so the fix would change "
    "nothing",
    "lf301_injected_decline.cjs": "LF301 not fixed: a stale takeover through an fs object handed in (a field, an "
    "option, a parameter): the fix's drop-ins would use Node's own fs instead",
}

# The release each declined case keeps, with the reason it is declined.
NO_FIX = {
    "lf301_injected_decline.cjs": "LF301 not fixed: the removal goes through an fs object handed in (a field, an "
    "option, a parameter): the fix's drop-in would use Node's own fs instead",
    "lf301_callback_decline.js": "LF301 not fixed: the removal `fs.unlink(PIDFILE, cb)` is not "
    "unlinkSync/rmSync/rmdirSync or a promise unlink/rm/rmdir with the path (and the options) as arguments (a "
    "callback, fs-extra's remove, a rename away): the fix has no drop-in for it",
    "lf301_replaced_decline.cjs": "LF301 not fixed: line 17 puts another file at the lock path (a rename, copy or "
    "link onto it): the release, bound to the created inode, would then leave it in place",
    "lf301_retaken_decline.mjs": "LF301 not fixed: line 10 takes the lock over by rewriting it in place (the "
    "same inode): a removal bound to the inode would still delete the new holder's lock, so the fix would change "
    "nothing",
}

# Cases node runs after the fix, and the module system they run as (the
# TypeScript cases other than the .tsx are plain JavaScript).
RUNNABLE = {
    "lf301_class.cjs": ".cjs",
    "lf301_token.mjs": ".mjs",
    "lf301_open.ts": ".mjs",
    "lf301_promises.mts": ".mjs",
    "lf301_rm.cts": ".cjs",
    "lf301_plain.js": ".cjs",
    "lf301_param.mts": ".mjs",
}


def stage(tmp_path, case, name="work"):
    work = tmp_path / name
    work.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".in"), work / case)
    return work


def vendored(case):
    files = {"lockrt.cjs": open(os.path.join(VENDOR, "lockrt.cjs"), "rb").read()}
    if os.path.splitext(case)[1] in TS_EXTS:
        files["lockrt.d.cts"] = open(os.path.join(VENDOR, "lockrt.d.cts"), "rb").read()
    return files


def split_diff(diff):
    """The diff of the module, and {new file: its content} from the creations."""
    parts = re.split(rb"(?m)^(?=--- )", diff)
    module, created = b"", {}
    for p in parts:
        if not p:
            continue
        head = p.split(b"\n", 2)
        if head[0] == b"--- /dev/null":
            name = head[1][len(b"+++ b/"):].decode()
            body = head[2].split(b"\n", 1)[1]  # past the @@ line
            created[name] = b"".join(line[1:] + b"\n" for line in body.split(b"\n")[:-1])
        else:
            module += p
    return module, created


def lf301_findings(cwd, path):
    doc = json.loads(lockfix(["scan", "--format", "json", "--select", "LF301", path], cwd).stdout)
    return doc["findings"]


def test_every_extension_has_a_fixed_case():
    exts = {os.path.splitext(c)[1] for c in CASES if c not in NO_FIX}
    assert exts == EXTS, EXTS - exts


@pytest.mark.parametrize("case", CASES)
def test_golden_patch(tmp_path, case):
    work = stage(tmp_path, case)
    # LF301's fix alone: other rules' fixes of the same module (LF401's unique
    # temp for a lock record renamed into place) are not what these goldens pin.
    proc = lockfix(["fix", case, "--diff", "--select", "LF301"], work)
    module, created = split_diff(proc.stdout)
    check_golden(os.path.join(GOLDEN_DIR, case + ".diff"), module)
    # what is left: the declined release or takeover, each with its reason
    left = [r for r in (NO_FIX.get(case), TAKEOVER_DECLINED.get(case)) if r]
    for reason in left:
        assert reason in proc.stderr.decode()
    assert proc.stderr.decode().count("LF301 not fixed") == len(left)
    assert proc.returncode == (1 if left else 0)
    if case in NO_FIX and case in TAKEOVER_DECLINED:
        assert proc.stdout == b""
        return
    assert module.startswith(b"--- a/%s\n+++ b/%s\n@@ " % (case.encode(), case.encode()))
    assert created == vendored(case)


@pytest.mark.parametrize("case", [c for c in CASES if not (c in NO_FIX and c in TAKEOVER_DECLINED)])
def test_patch_applies_once_and_parses(tmp_path, case):
    need_tool("git")
    need_tool("patch")
    work = stage(tmp_path, case)
    before = lf301_findings(work, case)
    patch_file = tmp_path / "fix.diff"
    left = int(case in NO_FIX) + int(case in TAKEOVER_DECLINED)
    # all rules' fixes: 1 when some rule's finding is left (LF302 has no fix)
    fix = lockfix(["fix", case, "--diff"], work)
    assert fix.returncode in (0, 1), fix.stderr
    patch_file.write_bytes(fix.stdout)
    run(["git", "apply", "--check", "--unsafe-paths", str(patch_file)], work, 0)
    run(["patch", "-p1", "--quiet", "-i", str(patch_file)], work, 0)
    patched = (work / case).read_bytes()
    assert lockfix(["fix", case, "--diff"], work, fix.returncode).stdout == b""
    applied = stage(tmp_path, case, "apply")
    lockfix(["fix", case, "--apply"], applied, fix.returncode)
    assert (applied / case).read_bytes() == patched
    assert sorted(os.listdir(applied)) == sorted([case] + list(vendored(case)))
    for name, content in vendored(case).items():
        assert (applied / name).read_bytes() == content
    after = lf301_findings(work, case)
    assert len(after) == left, (before, after)
    assert all(not f["fix"]["available"] for f in after), after
    assert lf301_findings(work, "lockrt.cjs") == []
    if os.path.splitext(case)[1] in (".js", ".mjs", ".cjs"):
        run([need_tool("node"), "--check", str(work / case)], work, 0)
        run([need_tool("node"), "--check", str(work / "lockrt.cjs")], work, 0)


def runnable(tmp_path, case, fixed, name):
    """The case (fixed or not) as a module node runs, lockrt.cjs beside it, and
    an empty directory for its lock."""
    work = stage(tmp_path, case, name)
    if fixed:
        lockfix(["fix", case, "--apply"], work)
    module = work / (os.path.splitext(case)[0] + "_run" + RUNNABLE[case])
    shutil.copy(work / case, module)
    lock_dir = tmp_path / (name + "_lock")
    lock_dir.mkdir()
    return module, lock_dir


def node_test(module, lock_dir, case):
    env = dict(os.environ, LF_MODULE=str(module), LF_CASE=os.path.splitext(case)[0], LF_DIR=str(lock_dir))
    return subprocess.run([need_tool("node"), "--test", os.path.join(NODE_DIR, "lf301.test.mjs")],
                          capture_output=True, env=env, timeout=120)


@pytest.mark.parametrize("case", sorted(RUNNABLE))
def test_patched_code_runs_under_node_test(tmp_path, case):
    module, lock_dir = runnable(tmp_path, case, True, "fixed")
    proc = node_test(module, lock_dir, case)
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    # the same test fails on the code before the fix, on the successor's lock only
    module, lock_dir = runnable(tmp_path, case, False, "orig")
    proc = node_test(module, lock_dir, case)
    out = proc.stdout.decode()
    assert proc.returncode != 0, out
    assert "not ok 2 - a successor's lock survives" in out and "# fail 1" in out, out


class Role:
    """One node process of the contention test (ts/lf301/node/role.mjs)."""

    def __init__(self, case, module, lock, role, stale_ms):
        self.p = subprocess.Popen(
            [need_tool("node"), os.path.join(NODE_DIR, "role.mjs"), os.path.splitext(case)[0], str(module), str(lock),
             role, str(stale_ms)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def line(self):
        out = self.p.stdout.readline().decode().strip()
        assert out, self.p.stderr.read().decode() if self.p.poll() is not None else "no output"
        return out

    def go(self):
        self.p.stdin.write(b"go\n")
        self.p.stdin.flush()

    def finish(self):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        self.p.wait(timeout=30)
        self.p.stdout.close()
        self.p.stderr.close()


def successor_round(case, module, lock):
    """A holds, is stopped, ages; B takes over; A resumes and releases; C tries.
    Returns (B's lock intact after A's release, what C got, what A said)."""
    a = Role(case, module, lock, "holder", 1000)
    b = c = None
    try:
        assert a.line() == "held"
        os.kill(a.p.pid, signal.SIGSTOP)  # the holder pauses (a GC pause, a stopped laptop)
        old = time.time() - 3600
        os.utime(lock, (old, old))
        b = Role(case, module, lock, "successor", 1000)
        assert b.line() == "took"
        b_bytes = lock.read_bytes()
        b_ino = os.stat(lock).st_ino
        os.kill(a.p.pid, signal.SIGCONT)
        a.go()
        said = a.line()
        intact = lock.exists() and lock.read_bytes() == b_bytes and os.stat(lock).st_ino == b_ino
        c = Role(case, module, lock, "third", 10 ** 9)
        third = c.line()
        return intact, third, said
    finally:
        for r in (a, b, c):
            if r is None:
                continue
            if r.p.poll() is None:
                os.kill(r.p.pid, signal.SIGCONT)
                try:
                    r.go()
                except BrokenPipeError:
                    pass
            r.finish()
        for f in os.listdir(lock.parent):
            os.unlink(lock.parent / f)


def test_lf301_fix_a_successors_lock_survives_real_processes(tmp_path):
    # a class's field (sync), a module const with a token compare (ESM), the
    # promise API (TypeScript); node --test covers the other runnable cases
    for case in ("lf301_class.cjs", "lf301_token.mjs", "lf301_promises.mts"):
        for fixed in (False, True):
            name = ("fixed_" if fixed else "orig_") + os.path.splitext(case)[0]
            module, lock_dir = runnable(tmp_path, case, fixed, name)
            lock = lock_dir / "job.lock"
            for _ in range(2 if fixed else 1):
                intact, third, said = successor_round(case, module, lock)
                if fixed:
                    assert intact, (case, said)
                    assert third == "refused", (case, third)
                    assert said == "released", (case, said)
                else:
                    # the paused holder deleted its successor's live lock: two holders
                    assert not intact, (case, said)
                    assert third == "acquired", (case, third)
