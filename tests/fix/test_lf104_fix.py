"""LF104's fix, an UNSAFE fix (tests/fix/lf104/<case>.<ext>.in: Python, and
TS/JS in .cjs/.mjs/.js/.ts).

`lockfix fix --unsafe-fixes --diff` must emit tests/fix/golden/lf104_<case>.<ext>.diff
byte for byte, plus the creation of the vendored binding beside the module,
exactly runtime/python/lockrt.py (Python) or runtime/node/vendor/lockrt.cjs
(and lockrt.d.cts beside TypeScript), kept out of the golden files as LF101's
are. The patch applies with `git apply` and `patch -p1`, equals what --apply
writes, compiles (py_compile; node --check), keeps the module header (shebang,
encoding, licence, docstring and __doc__, __future__; "use strict"), and a
second run has nothing to do. Without --unsafe-fixes nothing is written and
the finding says the fix needs the flag. decline_* cases keep the finding with
the reason, and no edit.

Real processes: N processes x M increments through the module's own bump()
(counter.py, counter.cjs) lose updates unpatched (reported, not asserted: a
race need not show) and none patched (exactly N*M): Python on the native
library and the pure-Python binding, Node on the vendored lockrt.cjs.

Set LOCKFIX_REGEN_GOLDEN=1 to write GOLDEN.new beside each golden file that differs, then
review and accept them with scripts/review-golden."""

import json
import re
import os
import shutil
import subprocess
import sys
import time

import pytest

from conftest import SRC, check_golden, lockfix, need_tool, read, run, split_vendored

CASES_DIR = os.path.join(SRC, "tests", "fix", "lf104")
GOLDEN_DIR = os.path.join(SRC, "tests", "fix", "golden")
BINDING = os.path.join(SRC, "runtime", "python", "lockrt.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
VENDOR_NODE = os.path.join(SRC, "runtime", "node", "vendor")
CASES = sorted(f[: -len(".in")] for f in os.listdir(CASES_DIR) if f.endswith(".in"))
UNSAFE = ["--unsafe-fixes"]

# Sites that keep their finding with no edit, and the reason the finding gives.
DECLINED = {
    "decline_callback.js": "4:27: LF104 not fixed: the write (line 7) runs in another function than the read (a "
    "callback or a helper): a lock taken around the read would be released before it runs, or held across the wait "
    "for it",
    "decline_generator.js": "4:27: LF104 not fixed: the read-modify-write spans a `yield` (line 5): the lock would "
    "stay held while the generator is suspended, for as long as its consumer likes",
    "decline_computed.js": "4:27: LF104 not fixed: the document's path `stateFile()` is computed by an expression "
    "the lock would evaluate once more before the read, and that could give another value or do something",
    "decline_await.py": "5:12: LF104 not fixed: the read-modify-write spans an `await` (line 6): a blocking lock held "
    "across it stalls the event loop, and another task of this process waiting for the same lock would never let "
    "it go",
    "decline_call_path.py": "5:12: LF104 not fixed: the document's path `state_file()` is computed by an expression the "
    "lock would evaluate once more before the read, and that could give another value or do something",
    "decline_clauses.py": "6:16: LF104 not fixed: the read and the write sit in different clauses of one statement "
    "(line 5): a lock around both would have to take in the whole statement",
    "decline_helper_local.py": "25:9: LF104 not fixed: the document's path is spelled in the helper that reads it "
    "(line 14) from `base`, assigned `state_dir()` there, which the lock would evaluate once more and could give "
    "another value or do something",
    "decline_multiline.py": "5:12: LF104 not fixed: the read-modify-write holds a string literal over several lines, "
    "which re-indenting it under the lock would change",
    "decline_named_helper.py": "5:14: LF104 not fixed: the document is read through read_state(\"turns\", {}), a helper "
    "of another module, whose argument `\"turns\"` need not be a file path: where its lock file belongs is for the "
    "code's owner",
    "decline_reentrant.js": "10:24: LF104 not fixed: the read-modify-write calls add() (line 11), which reads and "
    "writes files itself, under a lock of its own or one this fix may add: lockrt's lock is not reentrant, and on the "
    "same document the inner acquisition would wait out the timeout",
    "decline_reentrant.py": "11:9: LF104 not fixed: the read-modify-write calls add() (line 12), which has a "
    "read-modify-write of its own that this fix locks too: on the same document, lockrt's lock is not reentrant and "
    "the inner one would wait out the timeout",
    "decline_rebound.py": "9:16: LF104 not fixed: `path`, part of the document's path, is bound again between the "
    "lock's place (line 7) and the write (line 11): the lock path would name another file",
    "overlap_second_run.py": "10:17: LF104 not fixed: the document is written again at line 19, after the "
    "read-modify-write the lock would cover: that write would run unlocked from the same stale read",
    "overlap_second_run.mjs": "22:18: LF104 not fixed: its statements overlap another read-modify-write's (line 25) "
    "that gets the lock: one lock around both would be a guess",
    "decline_written_again.py": "6:16: LF104 not fixed: the document is written again at line 14, after the "
    "read-modify-write the lock would cover: that write would run unlocked from the same stale read",
    "decline_script_late_import.py": "8:14: LF104 not fixed: the module imports lockrt only after the "
    "read-modify-write, which runs at import time",
    "decline_yield.py": "5:12: LF104 not fixed: the read-modify-write spans a `yield` (line 6): the lock would stay held "
    "while the generator is suspended, for as long as its consumer likes",
    "decline_helpers.js": [
        "17:17: LF104 not fixed: the document is written again at line 21 (write()), after the read-modify-write the "
        "lock would cover: that write would run unlocked from the same stale read",
        "25:17: LF104 not fixed: the read-modify-write also calls add() (line 26), which reads or writes the same "
        "document: lockrt's lock is not reentrant, and a lock taken there too would wait for this one until the "
        "timeout",
        "45:17: LF104 not fixed: the document's path is spelled in the function that reads it by an expression this "
        "function cannot evaluate again to the same value (names it does not see bound the same way, or a call that "
        "may do more than compute a path): the lock cannot name it here"],
}
# Declined cases whose other site is fixed (golden patch as well).
PARTLY_FIXED = {"decline_reentrant.py", "decline_reentrant.js", "overlap_second_run.py", "overlap_second_run.mjs"}
FIXED = [c for c in CASES if c not in DECLINED]
LEFT_OUT = ("LF104 not fixed: an unsafe fix is left out: it is applied only with --unsafe-fixes (`lockfix explain "
            "LF104`, Fix safety)")



def stage(tmp_path, case, name="work"):
    work = tmp_path / name
    work.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".in"), work / case)
    return work


def vendored(case):
    """What the fix must create beside the module."""
    if case.endswith(".py"):
        return {"lockrt.py": read(BINDING)}
    files = {"lockrt.cjs": read(os.path.join(VENDOR_NODE, "lockrt.cjs"))}
    if case.endswith((".ts", ".mts", ".cts", ".tsx")):
        files["lockrt.d.cts"] = read(os.path.join(VENDOR_NODE, "lockrt.d.cts"))
    return files


def compiles(case, work):
    if case.endswith(".py"):
        run([PYTHON, "-m", "py_compile", case], work, 0)
    elif case.endswith((".js", ".cjs", ".mjs")):
        run([need_tool("node"), "--check", case], work, 0)


@pytest.mark.parametrize("case", CASES)
def test_golden_patch_or_reason(tmp_path, case):
    work = stage(tmp_path, case)
    proc = lockfix(["fix", case, "--diff"] + UNSAFE, work)
    rewrite, created = split_vendored(proc.stdout)
    if case in DECLINED:
        assert proc.returncode == 1
        reasons = DECLINED[case] if isinstance(DECLINED[case], list) else [DECLINED[case]]
        for reason in reasons:
            assert "%s:%s\n" % (case, reason) in proc.stderr.decode()
        if case not in PARTLY_FIXED:
            assert proc.stdout == b""
            return
    else:
        assert proc.returncode == 0, proc.stderr.decode()
    check_golden(os.path.join(GOLDEN_DIR, "lf104_%s.diff" % case), rewrite)
    assert created == vendored(case)
    assert re.search(r"fixed LF104( x\d+)? \(unsafe fix\) in %s; adds %s" % (re.escape(case),
                     re.escape(", ".join(sorted(created)))), proc.stderr.decode())


@pytest.mark.parametrize("case", FIXED)
def test_patch_applies_compiles_keeps_header_and_is_idempotent(tmp_path, case):
    need_tool("git")
    need_tool("patch")
    work = stage(tmp_path, case)
    original = read(work / case)
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(lockfix(["fix", case, "--diff"] + UNSAFE, work, 0).stdout)
    run(["git", "apply", "--check", "--unsafe-paths", str(patch_file)], work, 0)
    run(["patch", "-p1", "--quiet", "-i", str(patch_file)], work, 0)
    patched = read(work / case)
    assert {name: read(work / name) for name in vendored(case)} == vendored(case)
    # --apply writes the same bytes; a second run, unsafe fixes included, has nothing to do.
    other = stage(tmp_path, case, "apply")
    lockfix(["fix", case, "--apply"] + UNSAFE, other, 0)
    assert read(other / case) == patched
    again = lockfix(["fix", case, "--diff"] + UNSAFE, work, 0)
    assert again.stdout == b""
    assert b"LF104" not in lockfix(["scan", case], work).stdout
    compiles(case, work)
    lines = original.splitlines(True)
    if not case.endswith(".py"):
        # shebang, "use strict" and leading comments stay first
        first_code = next(i for i, l in enumerate(lines) if l.startswith((b"const ", b"import ", b"let ", b"function ")))
        assert patched.startswith(b"".join(lines[:first_code]))
        return
    # The header stays first: the same docstring, the same leading lines up to it.
    probe = "import ast, sys; print(repr(ast.get_docstring(ast.parse(open(sys.argv[1]).read()), clean=False)))"
    (tmp_path / "orig.py").write_bytes(original)
    doc_before = run([PYTHON, "-c", probe, str(tmp_path / "orig.py")], tmp_path, 0).stdout
    doc_after = run([PYTHON, "-c", probe, case], work, 0).stdout
    assert doc_after == doc_before
    first_import = next(i for i, l in enumerate(lines) if l.startswith(b"import "))
    assert patched.startswith(b"".join(lines[:first_import]))  # shebang, encoding, licence, docstring, __future__


def test_reentrant_caller_stays_declined_after_its_callee_is_locked(tmp_path):
    """The second run sees add() locked: add_two() calling it is still declined (a
    lock around the call would wait for itself until lockrt's timeout)."""
    work = stage(tmp_path, "decline_reentrant.py")
    lockfix(["fix", "decline_reentrant.py", "--apply"] + UNSAFE, work, 1)
    fixed = read(work / "decline_reentrant.py")
    again = lockfix(["fix", "decline_reentrant.py", "--apply"] + UNSAFE, work, 1)
    assert read(work / "decline_reentrant.py") == fixed
    assert ("decline_reentrant.py:17:9: LF104 not fixed: the read-modify-write calls add() (line 18), which reads a "
            "document under a lock of its own: if it is this lock, lockrt's lock is not reentrant and the inner one "
            "would wait out the timeout\n") in again.stderr.decode()


def test_header_module_still_prints_its_docstring(tmp_path):
    work = stage(tmp_path, "header_future.py")
    lockfix(["fix", "header_future.py", "--apply"] + UNSAFE, work, 0)
    out = run([PYTHON, "header_future.py"], work, 0).stdout.decode()
    assert out.startswith("Tool usage counts.\n\nPrinted as the CLI's help")
    (work / "c.json").write_text("{}")
    code = "import header_future as m; assert m.count_tool('c.json', 'grep') == 1; assert m.count_tool('c.json', 'grep') == 2"
    run([PYTHON, "-c", code], work, 0)
    assert os.path.exists(work / "c.json.lock")


@pytest.mark.parametrize("mode", ["--diff", "--apply"])
def test_without_unsafe_fixes_nothing_changes_and_the_flag_is_named(tmp_path, mode):
    work = stage(tmp_path, "counter.py")
    before = read(work / "counter.py")
    proc = lockfix(["fix", "counter.py", mode], work, 1)
    assert proc.stdout == b""
    assert read(work / "counter.py") == before
    assert sorted(os.listdir(work)) == ["counter.py"]
    err = proc.stderr.decode()
    assert "counter.py:9:20: %s\n" % LEFT_OUT in err
    assert "    left LF104 at counter.py:9: an unsafe fix is left out: it is applied only with --unsafe-fixes" in err
    assert err.endswith("1 finding left without a safe fix; 1 of them with an unsafe fix, applied only with "
                        "--unsafe-fixes\n")


def test_reports_say_the_fix_is_unsafe(tmp_path):
    work = stage(tmp_path, "counter.py")
    text = lockfix(["scan", "--no-witness", "counter.py"], work, 1).stdout.decode()
    assert ("    = unsafe fix (applied with --unsafe-fixes): the read-modify-write under "
            "lockrt.exclusive_lock(f\"{path}.lock\") (binding vendored beside the module)\n") in text
    assert text.endswith("Found 1 finding (1 warning) in 1 file; 1 with an unsafe fix (`lockfix fix "
                         "--unsafe-fixes`)\n")
    js = json.loads(lockfix(["scan", "--format", "json", "counter.py"], work, 1).stdout)
    fix = js["findings"][0]["fix"]
    assert fix["available"] is True and fix["safety"] == "unsafe"
    assert js["summary"]["fixable"] == 0 and js["summary"]["unsafe_fixable"] == 1
    sarif = json.loads(lockfix(["scan", "--format", "sarif", "counter.py"], work, 1).stdout)
    result = sarif["runs"][0]["results"][0]
    assert result["fixes"][0]["properties"] == {"safety": "unsafe"}
    rules = {r["id"]: r for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["LF104"]["properties"]["fixSafety"] == "unsafe"


def test_explain_and_rules_name_the_safety():
    explain = lockfix(["explain", "LF104"], SRC, 0).stdout.decode()
    section = explain.split("Fix safety", 1)[1]
    assert "unsafe" in section and "--unsafe-fixes" in section
    table = lockfix(["rules"], SRC, 0).stdout.decode()
    assert [l for l in table.splitlines() if l.startswith("LF104")][0].endswith("unsafe")


# ---------------------------------------------------------------- real processes

WORKER = """
import os, sys, time
sys.path.insert(0, sys.argv[1])
import counter
go, path, m = sys.argv[2], sys.argv[3], int(sys.argv[4])
while not os.path.exists(go):
    time.sleep(0.001)
for _ in range(m):
    counter.bump(path, "n")
"""


def race(state_dir, procs, argv, env=None, settle=0.2, timeout=120, result="counts.json"):
    """Run `procs` copies of the worker `argv(go, path)` so that they start
    together (each waits for the file `go`), wait for them all, and return the
    text they left in state_dir/<result> (counts.json)."""
    os.makedirs(state_dir)
    path = os.path.join(state_dir, result)
    go = os.path.join(state_dir, "go")
    workers = [subprocess.Popen(argv(go, path), env=env) for _ in range(procs)]
    time.sleep(settle)  # every worker started and waiting
    open(go, "w").close()
    for w in workers:
        assert w.wait(timeout=timeout) == 0
    with open(path) as f:
        return f.read()


def contention(module_dir, state_dir, procs, iters, env, torn_ok=False):
    """The count the workers left. torn_ok: the unpatched module's racing plain
    writes may leave a stale tail after the last document (`{"n": 12}2}`); its
    count is the document before the tail."""
    text = race(state_dir, procs, lambda go, path: [PYTHON, "-c", WORKER, str(module_dir), go, path, str(iters)], env)
    if torn_ok:
        return json.JSONDecoder().raw_decode(text)[0]["n"]
    return json.loads(text)["n"]


def binding_env(backend):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("LOCKRT_LIBRARY", None)
    if backend == "native":
        lib = os.environ.get("LOCKFIX_LOCKRT_LIBRARY")
        if not lib:
            pytest.skip("the native lockrt library is not built (LOCKFIX_LOCKRT_LIBRARY unset)")
        env["LOCKRT_LIBRARY"] = lib
        if os.environ.get("LOCKFIX_LOCKRT_PRELOAD"):
            # the ASan build's library in a plain python: the interpreter's own
            # allocations at exit are not lockrt's leaks (as test_lf101_fix.py)
            env.update(LD_PRELOAD=os.environ["LOCKFIX_LOCKRT_PRELOAD"], ASAN_OPTIONS="detect_leaks=0")
    else:
        env["LOCKRT_PURE_PYTHON"] = "1"
    return env


PROCS, ITERS = 4, 150


@pytest.mark.parametrize("backend", ["native", "python"])
def test_contention_patched_loses_nothing(tmp_path, backend, capsys):
    unpatched = stage(tmp_path, "counter.py", "unpatched")
    patched = stage(tmp_path, "counter.py", "patched")
    lockfix(["fix", "counter.py", "--apply"] + UNSAFE, patched, 0)
    env = binding_env(backend)
    probe = "import sys; sys.path.insert(0, sys.argv[1]); import lockrt; print(lockrt.BACKEND)"
    assert run([PYTHON, "-c", probe, str(patched)], tmp_path, 0, env=env).stdout.decode().strip() == backend
    before = contention(unpatched, str(tmp_path / "state-unpatched"), PROCS, ITERS, env, torn_ok=True)
    after = contention(patched, str(tmp_path / "state-patched"), PROCS, ITERS, env)
    with capsys.disabled():
        print("\nLF104 contention (%s, %d x %d): unpatched kept %d of %d, patched %d"
              % (backend, PROCS, ITERS, before, PROCS * ITERS, after))
    assert 0 < before <= PROCS * ITERS
    assert after == PROCS * ITERS


# Workers for the contention through a case module's own API: argv is
# module_dir, go, path, worker index, turns; each waits for `go`, then calls
# the module `turns` times.
MODULE_WORKER_HEAD = """
import os, sys, time
sys.path.insert(0, sys.argv[1])
go, path, me, m = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
while not os.path.exists(go):
    time.sleep(0.001)
"""

ROWS_WORKER = MODULE_WORKER_HEAD + """
import rows_copy
for i in range(m):
    rows_copy.upsert(path, "%s-%d" % (me, i), "working")
"""

TOTAL_WORKER = MODULE_WORKER_HEAD + """
import computed_total
for _ in range(m):
    try:
        computed_total.add_counted(path, 1)
    except ValueError:
        pass  # as written, a reader can meet another process's half-written record
"""


def module_contention(tmp_path, case, worker, result, count, procs, iters):
    """Fix `case` (--unsafe-fixes), then run `procs` x `iters` calls of its own
    API through `worker`, unpatched and patched (pure-Python lockrt); return
    count(text left in `result`) for each."""
    unpatched = stage(tmp_path, case, "unpatched")
    patched = stage(tmp_path, case, "patched")
    lockfix(["fix", case, "--apply"] + UNSAFE, patched, 0)
    env = binding_env("python")
    kept = {}
    for name, module in (("unpatched", unpatched), ("patched", patched)):
        index = iter(range(procs))
        text = race(str(tmp_path / ("state-" + name)), procs,
                    lambda go, path, module=module: [PYTHON, "-c", worker, str(module), go, path,
                                                     "p%d" % next(index), str(iters)],
                    env, result=result)
        kept[name] = count(text)
    return kept


def test_rows_copy_contention_patched_loses_nothing(tmp_path, capsys):
    """rows_copy.py's upsert writes back a copy of the rows it read (kept,
    filled in a loop) through helpers and a temp renamed over the registry:
    4 processes x 60 upserts of their own session ids. As written, rows
    another process added in between are lost; patched, every row stays."""
    procs, iters = 4, 60
    kept = module_contention(tmp_path, "rows_copy.py", ROWS_WORKER, "rows.json", lambda t: len(json.loads(t)),
                             procs, iters)
    with capsys.disabled():
        print("\nLF104 rows copy contention (python, %d x %d): unpatched kept %d of %d rows, patched %d"
              % (procs, iters, kept["unpatched"], procs * iters, kept["patched"]))
    assert 0 < kept["unpatched"] < procs * iters
    assert kept["patched"] == procs * iters


def counted(text):
    """The total a computed_total.py record holds; 0 when the unpatched
    module's racing plain writes left no record to read."""
    try:
        return json.JSONDecoder().raw_decode(text)[0]["counted"]
    except ValueError:
        return 0


def test_computed_total_contention_patched_loses_nothing(tmp_path, capsys):
    """computed_total.py's add_counted reads the total through a helper, adds to
    it and writes a new record: 4 processes x 100 additions through the module's
    own function. As written, additions are lost; patched, none."""
    procs, iters = 4, 100
    kept = module_contention(tmp_path, "computed_total.py", TOTAL_WORKER, "total.json", counted, procs, iters)
    with capsys.disabled():
        print("\nLF104 computed total contention (python, %d x %d): unpatched kept %d of %d, patched %d"
              % (procs, iters, kept["unpatched"], procs * iters, kept["patched"]))
    assert kept["unpatched"] < procs * iters
    assert kept["patched"] == procs * iters


LOCAL_WORKER = """
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
go, path, me, m = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
os.environ["STATE_DIR"] = os.path.dirname(path)
try:  # the first worker writes the empty document, before the start
    with os.fdopen(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY), "w") as f:
        json.dump({"n": 0}, f)
except FileExistsError:
    pass
import helper_local
while not os.path.exists(go):
    time.sleep(0.001)
for _ in range(m):
    try:
        helper_local.bump(os.path.basename(path))
    except ValueError:
        pass  # as written, a reader can meet another process's half-written document
"""


def test_helper_local_contention_patched_loses_nothing(tmp_path, capsys):
    """helper_local.py's bump() reads and writes through helpers that name the
    file from the environment and the caller's argument; the lock spells that
    path in bump(): 4 processes x 100 bumps through the module's own function.
    As written, bumps are lost; patched, none."""
    procs, iters = 4, 100

    def count(text):
        try:
            return json.JSONDecoder().raw_decode(text)[0]["n"]
        except ValueError:
            return 0

    kept = module_contention(tmp_path, "helper_local.py", LOCAL_WORKER, "counts.json", count, procs, iters)
    with capsys.disabled():
        print("\nLF104 helper-local path contention (python, %d x %d): unpatched kept %d of %d, patched %d"
              % (procs, iters, kept["unpatched"], procs * iters, kept["patched"]))
    assert kept["unpatched"] < procs * iters
    assert kept["patched"] == procs * iters


SCRIPT_WORKER = """
import os, subprocess, sys, time
script, go, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
while not os.path.exists(go):
    time.sleep(0.001)
for _ in range(runs):
    subprocess.run([sys.executable, script, "s"], check=True)
"""


def script_contention(script, state_dir, procs, runs, env):
    """The count left by `procs` workers, each running the hook script `runs`
    times, one process per run, as a hook runner does. None when the
    unpatched script's racing plain writes left no document to read."""
    env = dict(env, HOOK_STATE=os.path.join(state_dir, "counts.json"))
    text = race(state_dir, procs, lambda go, path: [PYTHON, "-c", SCRIPT_WORKER, str(script), go, str(runs)], env,
                timeout=300)
    try:
        return json.JSONDecoder().raw_decode(text)[0].get("s", 0)
    except ValueError:
        return None


def test_script_level_contention_patched_loses_nothing(tmp_path, capsys):
    """A hook script whose read-modify-write is the module's own statements:
    4 processes x 25 runs of the script (100 interpreters) through the
    pure-Python binding (native too in test_contention_patched_loses_nothing)."""
    unpatched = stage(tmp_path, "script_level.py", "unpatched")
    patched = stage(tmp_path, "script_level.py", "patched")
    lockfix(["fix", "script_level.py", "--apply"] + UNSAFE, patched, 0)
    env = binding_env("python")
    procs, runs = 4, 25
    before = script_contention(unpatched / "script_level.py", str(tmp_path / "state-unpatched"), procs, runs, env)
    after = script_contention(patched / "script_level.py", str(tmp_path / "state-patched"), procs, runs, env)
    with capsys.disabled():
        print("\nLF104 script-level contention (%d x %d runs): unpatched kept %s of %d, patched %d"
              % (procs, runs, before, procs * runs, after))
    assert after == procs * runs
    # nothing else left beside the document (the binding's lock file may stay: lockrt.md)
    assert set(os.listdir(tmp_path / "state-patched")) <= {"counts.json", "counts.json.lock", "go"}


NODE_WORKER = """
const fs = require('fs');
const [dir, go, file, m] = process.argv.slice(1);
const { bump } = require(dir + '/counter.cjs');
while (!fs.existsSync(go)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
for (let i = 0; i < Number(m); i++) bump(file, 'n');
"""


def node_contention(module_dir, state_dir, procs, iters, torn_ok=False):
    """The count the workers left. torn_ok: the unpatched module's racing writes
    (no truncation ordering between them) may leave a longer stale tail after the
    last document (`{"n":2}}`); its count is the document before the tail."""
    node = need_tool("node")
    text = race(state_dir, procs, lambda go, path: [node, "-e", NODE_WORKER, str(module_dir), go, path, str(iters)],
                settle=0.3)
    if torn_ok:
        return json.JSONDecoder().raw_decode(text)[0]["n"]
    return json.loads(text)["n"]


def test_node_contention_patched_loses_nothing(tmp_path, capsys):
    unpatched = stage(tmp_path, "counter.cjs", "unpatched")
    patched = stage(tmp_path, "counter.cjs", "patched")
    lockfix(["fix", "counter.cjs", "--apply"] + UNSAFE, patched, 0)
    assert sorted(os.listdir(patched)) == ["counter.cjs", "lockrt.cjs"]
    before = node_contention(unpatched, str(tmp_path / "state-unpatched"), PROCS, ITERS, torn_ok=True)
    after = node_contention(patched, str(tmp_path / "state-patched"), PROCS, ITERS)
    with capsys.disabled():
        print("\nLF104 contention (node, %d x %d): unpatched kept %d of %d, patched %d"
              % (PROCS, ITERS, before, PROCS * ITERS, after))
    assert 0 < before <= PROCS * ITERS
    assert after == PROCS * ITERS
    assert sorted(os.listdir(tmp_path / "state-patched")) == ["counts.json", "go"]  # every lock released


NODE_STORE_WORKER = """
const fs = require('fs');
const [dir, go, file, m] = process.argv.slice(1);
(async () => {
  const { Store } = await import(dir + '/helpers_class.mjs');
  const store = new Store(file);
  while (!fs.existsSync(go)) await new Promise((r) => setTimeout(r, 1));
  for (let i = 0; i < Number(m); i++) await store.bump('n');
})();
"""


def test_node_contention_through_the_class_helpers(tmp_path, capsys):
    """helpers_class.mjs: Store.bump() reads and writes through the class's
    own load() and save(); the lock goes around the caller's span."""
    node = need_tool("node")
    counts = {}
    for name in ("unpatched", "patched"):
        work = stage(tmp_path, "helpers_class.mjs", name)
        if name == "patched":
            lockfix(["fix", "helpers_class.mjs", "--apply"] + UNSAFE, work, 0)
        state = tmp_path / ("state-" + name)
        state.mkdir()
        go = state / "go"
        workers = [subprocess.Popen([node, "-e", NODE_STORE_WORKER, str(work), str(go), str(state / "counts.json"),
                                     str(ITERS)]) for _ in range(PROCS)]
        time.sleep(0.3)
        go.touch()
        for w in workers:
            assert w.wait(timeout=120) == 0
        counts[name] = json.JSONDecoder().raw_decode((state / "counts.json").read_text())[0]["n"]
    with capsys.disabled():
        print("\nLF104 contention through a class's own load()/save() (node, %d x %d): unpatched kept %d of %d, "
              "patched %d" % (PROCS, ITERS, counts["unpatched"], PROCS * ITERS, counts["patched"]))
    assert 0 < counts["unpatched"] <= PROCS * ITERS
    assert counts["patched"] == PROCS * ITERS


def test_second_run_does_not_nest_a_lock_around_the_first_runs(tmp_path):
    """Two interleaved read-modify-writes: the first run locks one and declines
    the other; after it, the other's span holds the first one's lock, and the
    second run declines it too instead of nesting a lock around it (a second
    run changes nothing)."""
    work = stage(tmp_path, "overlap_second_run.py")
    lockfix(["fix", "overlap_second_run.py", "--apply"] + UNSAFE, work, 1)
    fixed = read(work / "overlap_second_run.py")
    again = lockfix(["fix", "overlap_second_run.py", "--diff"] + UNSAFE, work, 1)
    assert again.stdout == b""
    assert ("overlap_second_run.py:11:17: LF104 not fixed: the read-modify-write holds a lock of its own (line 16): a "
            "lock around it would nest two locks, in an order other code may take the other way\n"
            ) in again.stderr.decode()
    assert read(work / "overlap_second_run.py") == fixed
    run([PYTHON, "-m", "py_compile", "overlap_second_run.py"], work, 0)


def test_ts_second_run_does_not_nest_a_lock_around_the_first_runs(tmp_path):
    """TS/JS: the config's read-modify-write spans the playbook's, which the
    first run locks (and the config's is declined as overlapping it); the
    second run finds lockrt.cjs's acquireLock inside the config's span and
    declines it again instead of nesting a lock around it."""
    work = stage(tmp_path, "overlap_second_run.mjs")
    lockfix(["fix", "overlap_second_run.mjs", "--apply"] + UNSAFE, work, 1)
    fixed = read(work / "overlap_second_run.mjs")
    assert b"acquireLock" in fixed
    again = lockfix(["fix", "overlap_second_run.mjs", "--diff"] + UNSAFE, work, 1)
    assert again.stdout == b""
    assert ("overlap_second_run.mjs:23:18: LF104 not fixed: the read-modify-write holds a lock of its own (line 30): "
            "a lock around it would nest two locks, in an order other code may take the other way\n"
            ) in again.stderr.decode()
    assert read(work / "overlap_second_run.mjs") == fixed
    run([need_tool("node"), "--check", "overlap_second_run.mjs"], work, 0)
