"""LF301's TS/JS fix for stale takeovers (lf301_release_owned, takeover sites:
checks/lf301_ts_site.c) on tests/fix/ts/lf301_takeover/cases/<case>.<ext>.in:

- `lockfix fix --diff --select LF301` shows exactly
  tests/fix/ts/lf301_takeover/golden/<case>.diff for the module (reviewed by
  hand): the judgement (statSync, lstat, readFileSync, promise readFile,
  directly or in the module's helper) and the removal become lockrt.cjs's
  judged drop-ins, plus the vendored lockrt.cjs (and lockrt.d.cts beside
  TypeScript) byte for byte; a declined case changes nothing and names its
  blocker;
- a takeover in the catch LF303's fix rewrites gets both fixes in one run
  (golden of the whole fix), and a second run changes nothing;
- every fixed case: `--apply` equals the diff, a second run changes nothing,
  no takeover is reported any more, JavaScript passes `node --check` and
  TypeScript transpiles (the pinned typescript of deps/tools);
- real processes: six node processes take stat_age.cjs's lock file (and
  dir_age.cjs's lock directory) 40 times each,
  every third holder abandoning it (as if it crashed) so that the others race
  to break it, each breaker pausing between its look and its removal. As
  written, breakers delete the lock a faster breaker has just taken and two
  processes hold it at once; as fixed, never, and every process still gets
  its 40 turns."""

import json
import os
import re
import shutil
import subprocess
import time

import pytest

from conftest import SRC, check_golden, lockfix, need_tool, run

DIR = os.path.join(SRC, "tests", "fix", "ts", "lf301_takeover")
CASES_DIR = os.path.join(DIR, "cases")
GOLDEN_DIR = os.path.join(DIR, "golden")
VENDOR = os.path.join(SRC, "runtime", "node", "vendor")
CASES = sorted(f[: -len(".in")] for f in os.listdir(CASES_DIR) if f.endswith(".in"))
TS_EXTS = {".ts", ".mts", ".cts", ".tsx"}

# The declined takeovers, with the reason each names.
DECLINED = {
    "exists_decline.js": "LF301 not fixed: a stale takeover judged by `fs.existsSync(LOCK)`: the fix binds the "
    "removal only to a read or stat of the same path by Node's own fs",
    "branch_decline.cjs": "LF301 not fixed: a stale takeover whose judgement `fs.statSync(lock)` does not run on "
    "every way to the removal (it is in a branch, a callback or behind && / ||)",
    "catch_decline.mjs": "LF301 not fixed: a stale takeover whose judgement `fs.readFileSync(LOCK, \"utf8\")` does "
    "not run on every way to the removal",
}
# Other LF301 findings a fixed case keeps (not takeovers), with their reason. (remove_helper.cjs has one
# finding, the helper's own release, naming the judged call of it: the takeover's fix binds both.)
KEPT = {
    # the release after the helper's create, judged by the look before it: declined (a judged removal there
    # would meet an older look's judgement and leave the holder's own lock), the takeover before it fixed
    "own_create_release.cjs": "LF301 not fixed: the removal can also come after this function's own create of the "
    "lock (line 22) with no look since: there it is the holder's release",
    # the removal in the catch of the read: a lock its owner is still writing reads as corrupt, unchanged until
    # that write lands, so a removal bound to the read would still delete it; the stale break beside it is fixed
    "failed_read.cjs": "LF301 not fixed: the removal follows a failed read of the lock: a lock its owner is still "
    "writing reads as corrupt and stays unchanged until that write lands",
}
OWN_CREATE = "own create of the lock"
FIXED = [c for c in CASES if c not in DECLINED]
TAKEOVER_WORDS = ("after looking at it", "after judging its owner dead")


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
    module, created = b"", {}
    for p in re.split(rb"(?m)^(?=--- )", diff):
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


def lf301(cwd, path):
    return json.loads(lockfix(["scan", "--format", "json", "--select", "LF301", path], cwd).stdout)["findings"]


@pytest.mark.parametrize("case", CASES)
def test_golden_patch(tmp_path, case):
    work = stage(tmp_path, case)
    proc = lockfix(["fix", case, "--diff", "--select", "LF301"], work)
    err = proc.stderr.decode()
    module, created = split_diff(proc.stdout)
    check_golden(os.path.join(GOLDEN_DIR, case + ".diff"), module)
    left = [r for r in (DECLINED.get(case), KEPT.get(case)) if r]
    for reason in left:
        assert reason in err, err
    assert err.count("LF301 not fixed") == len(left), err
    assert proc.returncode == (1 if left else 0), err
    if case in DECLINED:
        assert proc.stdout == b""
        return
    assert module.startswith(b"--- a/%s\n+++ b/%s\n@@ " % (case.encode(), case.encode()))
    assert created == vendored(case)


def test_nested_in_lf303_fix_one_run(tmp_path):
    # both fixes in one run: the bound removal waits for the second round
    case = "lf303_nested.ts"
    work = stage(tmp_path, case)
    proc = lockfix(["fix", case, "--diff"], work, 0)
    module, _ = split_diff(proc.stdout)
    check_golden(os.path.join(GOLDEN_DIR, case + ".all.diff"), module)
    assert b"unlinkJudged(lockPath)" in module and b'!== "EPERM"' in module
    lockfix(["fix", case, "--apply"], work, 0)
    # nothing more to do (LF303 then reports the pid reuse it cannot fix)
    again = lockfix(["fix", case, "--diff"], work)
    assert again.stdout == b"" and again.returncode in (0, 1), again.stderr


def ts_transpile(path):
    # the pinned compiler of deps/tools (ctest's formats.tools_setup installs it), or any
    # node_modules holding typescript named by LOCKFIX_TS_NODE_MODULES
    tools = os.environ.get("LOCKFIX_TOOLS_DIR", os.path.join(SRC, "build", "tools"))
    mods = os.environ.get("LOCKFIX_TS_NODE_MODULES") or os.path.join(tools, "node_modules")
    if not os.path.isdir(os.path.join(mods, "typescript")):
        pytest.skip("no typescript in %s (run ctest, whose formats.tools_setup installs deps/tools, or set "
                    "LOCKFIX_TS_NODE_MODULES)" % mods)
    script = (
        "const ts = require(process.argv[1]); const fs = require('fs');"
        "const out = ts.transpileModule(fs.readFileSync(process.argv[2], 'utf8'), {reportDiagnostics: true,"
        " fileName: process.argv[2], compilerOptions: {module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022}});"
        "if (out.diagnostics.length) { console.error(JSON.stringify(out.diagnostics.map(d => d.messageText))); process.exit(1); }"
        "fs.writeFileSync(process.argv[2] + '.mjs', out.outputText);")
    run([need_tool("node"), "-e", script, os.path.join(mods, "typescript"), str(path)], os.path.dirname(path), 0)
    run([need_tool("node"), "--check", str(path) + ".mjs"], os.path.dirname(path), 0)


@pytest.mark.parametrize("case", FIXED)
def test_applies_once_and_compiles(tmp_path, case):
    work = stage(tmp_path, case)
    diff = lockfix(["fix", case, "--diff"], work)
    assert diff.returncode in (0, 1), diff.stderr
    lockfix(["fix", case, "--apply"], work, diff.returncode)
    applied = stage(tmp_path, case, "by_patch")
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(diff.stdout)
    need_tool("patch")
    run(["patch", "-p1", "--quiet", "-i", str(patch_file)], applied, 0)
    assert (applied / case).read_bytes() == (work / case).read_bytes()
    assert lockfix(["fix", case, "--diff"], work).stdout == b""
    after = lf301(work, case)
    assert all(not f["fix"]["available"] for f in after), after
    assert not [f for f in after if any(w in f["message"] for w in TAKEOVER_WORDS) and
                OWN_CREATE not in f["fix"].get("reason", "")], after
    if os.path.splitext(case)[1] in TS_EXTS:
        ts_transpile(work / case)
    else:
        run([need_tool("node"), "--check", str(work / case)], work, 0)


def contend(module, lock_dir, procs=6, turns=40):
    node = need_tool("node")
    worker = os.path.join(DIR, "node", "contend.cjs")
    args = [str(module), str(lock_dir / "job.lock"), str(lock_dir / "cs"), str(turns), "1000", "20", "2", "3"]
    ps = [subprocess.Popen([node, worker] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
          for _ in range(procs)]
    results = []
    for p in ps:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
        results.append(json.loads(out))
    return results


# The contended cases: a lock file (writeFileSync wx, unlinkSync) and a lock
# directory (mkdirSync, rmdirSync), and the judged removal each is fixed to.
CONTENDED = {"stat_age.cjs": b"unlinkJudgedSync(lock)", "dir_age.cjs": b"rmdirJudgedSync(lock)"}


@pytest.mark.parametrize("case", sorted(CONTENDED))
def test_takeover_real_processes(tmp_path, case):
    figures = {}
    for fixed in (False, True):
        name = "fixed" if fixed else "orig"
        work = stage(tmp_path, case, name)
        if fixed:
            lockfix(["fix", case, "--apply"], work, 1)
            assert CONTENDED[case] in (work / case).read_bytes()
        lock_dir = tmp_path / (name + "_lock")
        lock_dir.mkdir()
        res = contend(work / case, lock_dir)
        figures[name] = res
        # nothing is left beside the lock: no quarantined file, no critical section
        assert [f for f in os.listdir(lock_dir) if f != "job.lock"] == [], os.listdir(lock_dir)
    orig = sum(r["overlaps"] for r in figures["orig"])
    fixed = sum(r["overlaps"] for r in figures["fixed"])
    print("%s takeover contention, 6 processes x 40 turns: overlaps as written %d, as fixed %d" % (case, orig, fixed))
    # as written, breakers delete the lock a faster breaker just took: two holders
    assert orig > 0, figures["orig"]
    # as fixed, never; and every process got all its turns (nobody was locked out)
    assert fixed == 0, figures["fixed"]
    assert all(r["acquired"] == 40 and r["abandoned"] == 13 for r in figures["fixed"]), figures["fixed"]


# shared_helper_retry.cjs: one helper removes the lock directory for the stale
# break and for the holder's release. A waiter that looked at the holder's
# fresh lock (a judgement of it) and then took the lock itself must still
# remove its own lock when done: its create binds the release, not the look.
SHARED_WORKER = r"""
const fs = require("fs");
const { withLock } = require(process.argv[1]);  // node -e: the arguments start at argv[1]
const [lockDir, held, go] = process.argv.slice(2);
withLock(lockDir, 60000, () => {
  fs.writeFileSync(held, String(process.pid));
  while (go !== "-" && !fs.existsSync(go)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
});
"""


def wait_for(path, proc, timeout=60):
    deadline = time.time() + timeout
    while not os.path.exists(path):
        assert proc.poll() is None and time.time() < deadline, proc.communicate()
        time.sleep(0.01)


def waiter_takes_and_releases_its_own_lock(tmp_path, case, worker, bound_removal, lock_name):
    """Holder A takes the lock of `case` (as written, then as fixed) and holds it until told; waiter B looks
    at A's fresh lock, waits, takes the lock once A released it, and releases it. Both must release their
    own lock: nothing left at the path, nothing quarantined beside it."""
    node = need_tool("node")
    for fixed in (False, True):
        name = "fixed" if fixed else "orig"
        work = stage(tmp_path, case, name)
        if fixed:
            lockfix(["fix", case, "--apply"], work, 1)  # LF302 stays (no pid recorded)
            assert bound_removal in (work / case).read_bytes()
        run_dir = tmp_path / (name + "_run")
        run_dir.mkdir()
        lock_path = run_dir / lock_name
        module = str(work / case)
        a = subprocess.Popen([node, "-e", worker, module, str(lock_path), str(run_dir / "held-a"),
                              str(run_dir / "go-a")], stderr=subprocess.PIPE)
        wait_for(str(run_dir / "held-a"), a)
        b = subprocess.Popen([node, "-e", worker, module, str(lock_path), str(run_dir / "held-b"), "-"],
                             stderr=subprocess.PIPE)
        time.sleep(0.3)  # b looks at a's fresh lock, and waits
        assert not os.path.exists(str(run_dir / "held-b"))
        (run_dir / "go-a").write_text("")
        for p in (a, b):
            _, err = p.communicate(timeout=60)
            assert p.returncode == 0, err.decode()
        assert os.path.exists(str(run_dir / "held-b"))
        assert sorted(os.listdir(str(run_dir))) == ["go-a", "held-a", "held-b"], (name, os.listdir(str(run_dir)))


def test_shared_helper_waiter_releases_its_own_lock(tmp_path):
    waiter_takes_and_releases_its_own_lock(tmp_path, "shared_helper_retry.cjs", SHARED_WORKER,
                                           b"rmdirBoundSync(lockDir)", "job.lock")


EXPORTED_WORKER = r"""
const fs = require("fs");
const { lock, unlock } = require(process.argv[1]);  // node -e: the arguments start at argv[1]
const [path, held, go] = process.argv.slice(2);
lock(path, 60000);
fs.writeFileSync(held, String(process.pid));
while (go !== "-" && !fs.existsSync(go)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
unlock(path);
"""


def test_exported_release_waiter_releases_its_own_lock(tmp_path):
    # exported_release_retry.cjs: unlock() is the users' release and lock()'s stale break. B's look at A's
    # fresh lock is a judgement of A's file: a judged drop-in in unlock() would meet it and leave B's own lock
    # behind (what the fix did before the helper's users counted as releases); the bound one removes B's.
    waiter_takes_and_releases_its_own_lock(tmp_path, "exported_release_retry.cjs", EXPORTED_WORKER,
                                           b"unlinkBoundSync(path)", "job.lock")
