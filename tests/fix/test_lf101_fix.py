"""LF101's fix, the Windows fan-out fix, per shape (tests/fix/lf101/<case>.py.in).

Each case is staged as pkg/state.py in a package whose sibling module imports it
relatively. `lockfix fix --diff` must emit tests/fix/golden/lf101_<case>.diff byte
for byte, plus the creation of pkg/lockrt.py whose content must be exactly
runtime/python/lockrt.py (kept out of the golden files so that a change to the
binding does not rewrite every golden patch). The diff applies with `git apply`
and `patch -p1`, equals what --apply writes, a second run has nothing to do, and
the patched module runs. Each shape and variant, run by 6 real processes on its
unlocked path, loses updates before the fix and none after it (native library
and pure-Python binding). Cases whose site is only similar get the finding and
no fix, with the reason.

Set LOCKFIX_REGEN_GOLDEN=1 to write GOLDEN.new beside each golden file that differs, then
review and accept them with scripts/review-golden."""

import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import SRC, check_golden, lockfix, need_tool, run

CASES_DIR = os.path.join(SRC, "tests", "fix", "lf101")
GOLDEN_DIR = os.path.join(SRC, "tests", "fix", "golden")
BINDING = os.path.join(SRC, "runtime", "python", "lockrt.py")
CASES = sorted(f[: -len(".py.in")] for f in os.listdir(CASES_DIR) if f.endswith(".py.in"))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
# The simulated Windows of the binding's own tests (fake_msvcrt.install()).
FAKE_MSVCRT_DIR = os.path.join(SRC, "runtime", "python", "tests")

# Sites that must keep their finding without a fix, with the reason it gives.
LOCKF_REASON = ("the old code takes POSIX record locks (fcntl.lockf/fcntl.fcntl), which do not exclude the flock() "
                "lockrt takes on POSIX: patched and unpatched processes would not exclude each other while the fix "
                "rolls out")
NO_FIX = {
    "lookalike": ["pkg/state.py:32:5: LF101 not fixed: the unlocked path differs from the locked one (line 48 vs "
                  "line 39), so collapsing them would change what the unlocked path does"],
    "partial": ["pkg/state.py:44:5: LF101 not fixed: the handler around the lock does more than `pass` (it logs or "
                "handles the error), which the rewrite would drop"],
    "try_handler": ["pkg/state.py:85:5: LF101 not fixed: the handler at line 98 catches some OSErrors but not all: "
                    "the old lock's errors could be among them, and lockrt raises its own (LockrtError), which that "
                    "handler would not catch",
                    "pkg/state.py:108:5: LF101 not fixed: the handler at line 121 does more than return, raise or "
                    "log: it ran while the lock was held, and would run after lockrt's lock is released"],
    "flag_platform": ["pkg/state.py:20:5: LF101 not fixed: the lock is taken through the helper `_acquire()`, whose "
                      "callers rely on what it returns; the rewrite does not change a helper's contract; and fcntl "
                      "from lockrt cannot stand in: the module keeps `HAVE_FCNTL` beside fcntl, which would still say "
                      "fcntl is missing"],
    "class_lock_msvcrt": ["pkg/state.py:27:9: LF101 not fixed: the module locks with msvcrt where fcntl is missing, a "
                          "Windows path of its own that lockrt's fcntl would replace"],
    "class_lock_other_use": ["pkg/state.py:16:9: LF101 not fixed: line 18 uses `fcntl.fcntl`, and lockrt's fcntl "
                             "for Windows offers flock() and the LOCK_ constants only"],
    "variant_b": ["pkg/state.py:34:5: LF101 not fixed: " + LOCKF_REASON,
                  "pkg/state.py:57:5: LF101 not fixed: " + LOCKF_REASON],
}
# Cases fixed by importing fcntl from lockrt (the lock helper's protocol stays).
PORTABLE = {"class_lock", "helper_take", "flag_guard", "data_file_handle"}
# Cases where no site is rewritten at all.
NOTHING_FIXED = {"lookalike", "variant_b", "class_lock_other_use", "class_lock_msvcrt", "flag_platform"}

# What the patched module must do, run with STATE_DIR set and sys.platform forced
# to "win32" (the path that used to run unlocked).
BEHAVIOUR = {
    "shape_a": "assert m.increment_turn_count('s') == 1 and m.increment_turn_count('s') == 2",
    "shape_b": "assert m.increment_turn_count('s') == 1; assert m.track_retention('s') == 1",
    "shape_c": "assert m.increment_turn_count('s') == 1; assert m.end_session('s') == 1",
    "variant_a": "assert m.bump_session('s', step=2) == 2 and m.bump_session('s') == 3",
    "variant_b": "assert m.count_turn('s') == 1; assert m.retain('s', limit=1) == 0; assert m.retain('t', limit=1) == 1",
    "variant_c": "assert m.add_tool('s', 'grep') == 1 and m.add_tool('s', 'ls') == 2",
    "partial": "assert m.first('x') and m.second('x')",
    "try_import_sys": "assert m.increment_turn_count('s') == 1 and m.increment_turn_count('s') == 2",
    "open_in_test": "assert m.increment_turn_count('s') == 1 and m.increment_turn_count('s') == 2",
    "importlib_helper": "assert m.add_tool('s', 'a') == 1 and m.add_tool('s', 'b') == 2",
    "class_lock": "assert m.add_tool('s', 'a') == 1 and m.add_tool('s', 'b') == 2",
    "helper_take": "assert m.add_tool('s', 'a') == 1 and m.add_tool('s', 'b') == 2",
    "flag_guard": "assert m.add_tool('s', 'a') == 1 and m.add_tool('s', 'b') == 2 and m.HAS_FCNTL",
    "data_file_handle": "assert m.add_tool('s', 'a') == 1 and m.add_tool('s', 'b') == 2 and m._HAVE_FLOCK",
    "local_import": "assert m.add_tool('s', 'a') == 1 and m.add_tool('s', 'b') == 2; "
                    "assert m.count_visit('p') == 1 and m.count_visit('p') == 2",
    "try_handler": "assert m.add_tool('s', 'a') == 1 and m.add_tool('s', 'b') == 2; "
                   "assert m.update_tools('s', lambda t: len(t)) == 2",
    "helpers": "assert m.increment_turn_count('s') == 1 and m.increment_turn_count('s') == 2; "
               "assert m.count_visit('p') == 1 and m.count_visit('p') == 2; "
               "assert m.add_note('s', 'a') == 1; assert m.mark_seen('s') == 1",
}


def read(path):
    with open(path, "rb") as f:
        return f.read()


def split_vendored(diff):
    """(the diff without its file creations, {created path: content}). Creations
    come last in lockfix's diffs, each `--- /dev/null`, `+++ b/P`, one hunk."""
    at = diff.find(b"--- /dev/null\n")
    if at == -1:
        return diff, {}
    assert at == 0 or diff[at - 1 : at] == b"\n"
    created = {}
    lines = diff[at:].split(b"\n")
    assert lines.pop() == b""
    i = 0
    while i < len(lines):
        assert lines[i] == b"--- /dev/null", lines[i]
        path = lines[i + 1][len(b"+++ b/") :].decode()
        m = re.match(rb"@@ -0,0 \+1(?:,(\d+))? @@$", lines[i + 2])
        assert m, lines[i + 2]
        n = int(m.group(1) or 1)
        body = lines[i + 3 : i + 3 + n]
        assert all(l.startswith(b"+") for l in body)
        created[path] = b"".join(l[1:] + b"\n" for l in body)
        i += 3 + n
    return diff[:at], created


def stage(tmp_path, case, sibling="from .state import read_state\n", package=True):
    work = tmp_path / "work"
    pkg = work / "pkg" if package else work
    pkg.mkdir(parents=True)
    if package:
        (pkg / "__init__.py").write_text("")
        (pkg / "hooks.py").write_text(sibling)
    shutil.copy(os.path.join(CASES_DIR, case + ".py.in"), pkg / "state.py")
    return work


def run_patched(work, case, module="pkg.state"):
    state = work / "state-dir"
    state.mkdir(exist_ok=True)
    code = (
        "import sys; sys.platform = 'win32'; sys.path.insert(0, %r)\n"
        "import importlib; m = importlib.import_module(%r)\n%s\n" % (str(work), module, BEHAVIOUR[case])
    )
    env = dict(os.environ, STATE_DIR=str(state), PYTHONDONTWRITEBYTECODE="1", LOCKRT_PURE_PYTHON="1")
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, env=env)
    assert proc.returncode == 0, proc.stderr.decode()


@pytest.mark.parametrize("case", CASES)
def test_golden_patch(tmp_path, case):
    work = stage(tmp_path, case)
    proc = lockfix(["fix", "pkg", "--diff"], work)
    again = lockfix(["fix", "pkg", "--diff", "--jobs", "1"], work)
    assert proc.stdout == again.stdout
    rewrite, created = split_vendored(proc.stdout)
    golden = os.path.join(GOLDEN_DIR, "lf101_%s.diff" % case)
    check_golden(golden, rewrite)
    left = [l for l in proc.stderr.decode().splitlines() if " not fixed: " in l]
    assert left == NO_FIX.get(case, [])
    if case in NOTHING_FIXED:
        assert proc.stdout == b"" and proc.returncode == 1
        return
    assert rewrite.startswith(b"--- a/pkg/state.py\n+++ b/pkg/state.py\n@@ ")
    assert created == {"pkg/lockrt.py": read(BINDING)}
    assert proc.returncode == (1 if case in NO_FIX else 0), proc.stderr.decode()


@pytest.mark.parametrize("case", [c for c in CASES if c not in NOTHING_FIXED])
def test_patch_applies_runs_and_is_idempotent(tmp_path, case):
    need_tool("git")
    need_tool("patch")
    work = stage(tmp_path, case)
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(lockfix(["fix", "pkg", "--diff"], work).stdout)
    run(["git", "apply", "--check", str(patch_file)], work, 0)
    run(["patch", "-p1", "--quiet", "-i", str(patch_file)], work, 0)
    assert not list(work.rglob("*.orig")) and not list(work.rglob("*.rej"))
    assert read(work / "pkg" / "lockrt.py") == read(BINDING)
    patched = read(work / "pkg" / "state.py")
    if case in PORTABLE:
        assert b" = lockrt.fcntl  # lockfix LF101" in patched and b"import fcntl" not in patched
    else:
        assert b"lockrt.exclusive_lock(" in patched and b"as acquired:" in patched
    run([PYTHON, "-m", "py_compile", str(work / "pkg" / "state.py")], work, 0)
    # --apply writes the same files; a second run has nothing to do.
    applied = stage(tmp_path / "apply", case)
    lockfix(["fix", "pkg", "--apply"], applied, 1 if case in NO_FIX else 0)
    assert read(applied / "pkg" / "state.py") == patched
    assert read(applied / "pkg" / "lockrt.py") == read(BINDING)
    second = lockfix(["fix", "pkg", "--apply"], applied, 1 if case in NO_FIX else 0)
    assert b"applied 0 fixes in 0 files" in second.stderr
    assert read(applied / "pkg" / "state.py") == patched
    assert lockfix(["fix", "pkg", "--diff"], applied).stdout == b""
    scan = lockfix(["scan", "pkg", "--select", "LF101", "--format", "json"], applied)
    assert scan.returncode == (1 if case in NO_FIX else 0), scan.stdout.decode()
    run_patched(work, case)


def test_unrecognised_site_is_left_byte_for_byte(tmp_path):
    work = stage(tmp_path, "lookalike")
    before = read(work / "pkg" / "state.py")
    proc = lockfix(["fix", "pkg", "--apply"], work, 1)
    assert read(work / "pkg" / "state.py") == before
    assert not (work / "pkg" / "lockrt.py").exists()
    assert b"applied 0 fixes in 0 files; 1 finding left without a safe fix" in proc.stderr


def test_module_outside_a_package_imports_lockrt_plainly(tmp_path):
    work = stage(tmp_path, "shape_a", package=False)
    proc = lockfix(["fix", ".", "--diff"], work, 0)
    rewrite, created = split_vendored(proc.stdout)
    assert b"\n+import lockrt\n" in rewrite and b"from . import" not in rewrite
    assert created == {"lockrt.py": read(BINDING)}
    lockfix(["fix", ".", "--apply"], work, 0)
    run_patched(work, "shape_a", module="state")


def test_package_with_absolute_imports_gets_an_absolute_import(tmp_path):
    work = stage(tmp_path, "shape_a", sibling="from pkg.state import read_state\n")
    rewrite, created = split_vendored(lockfix(["fix", "pkg", "--diff"], work, 0).stdout)
    assert b"\n+from pkg import lockrt\n" in rewrite
    assert created == {"pkg/lockrt.py": read(BINDING)}
    lockfix(["fix", "pkg", "--apply"], work, 0)
    run_patched(work, "shape_a")


def test_runtime_dir_vendors_into_a_subpackage(tmp_path):
    need_tool("git")
    work = stage(tmp_path, "shape_b")
    diff = lockfix(["fix", "pkg", "--diff", "--runtime-dir", "_vendor"], work, 0).stdout
    rewrite, created = split_vendored(diff)
    assert b"\n+from ._vendor import lockrt\n" in rewrite
    assert sorted(created) == ["pkg/_vendor/__init__.py", "pkg/_vendor/lockrt.py"]
    assert created["pkg/_vendor/lockrt.py"] == read(BINDING)
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(diff)
    run(["git", "apply", str(patch_file)], work, 0)
    run_patched(work, "shape_b")
    for bad in ("../up", "a/b", "1x", "with-dash", ""):
        proc = lockfix(["fix", "pkg", "--diff", "--runtime-dir", bad], work, 2)
        assert b"--runtime-dir needs a Python identifier" in proc.stderr
    assert b"--runtime-dir needs" in lockfix(["fix", "pkg", "--runtime-dir"], work, 2).stderr


def test_foreign_lockrt_beside_the_module_stops_the_apply(tmp_path):
    work = stage(tmp_path, "shape_a")
    (work / "pkg" / "lockrt.py").write_text("# someone else's lockrt\n")
    before = read(work / "pkg" / "state.py")
    proc = lockfix(["fix", "pkg", "--apply"], work, 2)
    assert b"pkg/lockrt.py" in proc.stderr
    assert read(work / "pkg" / "state.py") == before
    assert read(work / "pkg" / "lockrt.py") == b"# someone else's lockrt\n"


def test_fanout_summary_names_each_integration(tmp_path):
    root = tmp_path / "mono"
    for name, case in (("alpha", "shape_a"), ("beta", "lookalike"), ("gamma", "shape_c")):
        pkg = root / name / "lib"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        shutil.copy(os.path.join(CASES_DIR, case + ".py.in"), pkg / "state.py")
    (root / "delta").mkdir()
    (root / "delta" / "ok.py").write_text("x = 1\n")
    proc = lockfix(["fix", "mono", "--diff"], tmp_path, 1)
    summary = proc.stderr.decode().split("fan-out over ", 1)[1].splitlines()
    assert summary[:6] == [
        "mono (diff): 4 integrations, 2 changed, 1 with findings left",
        "  alpha: fixed LF101 in lib/state.py; adds lib/lockrt.py",
        "  beta:",
        "    left LF101 at lib/state.py:32: the unlocked path differs from the locked one (line 48 vs line 39), so "
        "collapsing them would change what the unlocked path does",
        "  gamma: fixed LF101 in lib/state.py; adds lib/lockrt.py",
        "  nothing to fix: delta",
    ]


def test_fanout_summary_of_a_file_argument_lists_what_it_vendors(tmp_path):
    """A file named on the command line (as pre-commit passes them) is its own
    integration; the lockrt.py its fix adds beside it belongs to its line, not
    to an integration of its own with nothing to fix."""
    work = stage(tmp_path, "shape_a")
    proc = lockfix(["fix", "pkg/state.py", "--diff"], work)
    summary = proc.stderr.decode().split("fan-out over ", 1)[1].splitlines()
    assert summary == [
        "pkg/state.py (diff): 1 integration, 1 changed, 0 with findings left",
        "  pkg/state.py: fixed LF101 in state.py; adds lockrt.py",
        "lockfix: diff of 1 fix in 1 file; 0 findings left without a safe fix",
    ]


# Lost updates, before and after the fix, with real processes on the Windows
# path: each case's own update function, one key per process, all processes
# imported and waiting before any starts (ready/go barrier).
CONTENTION = {
    # case: (call with K the process's key, state file, count of K's updates in the document)
    "shape_a": ("m.increment_turn_count(K)", "turns", lambda doc, k: doc.get(k, 0)),
    "shape_b": ("m.increment_turn_count(K)", "turns", lambda doc, k: doc.get(k, 0)),
    "shape_c": ("m.increment_turn_count(K)", "turns", lambda doc, k: doc.get(k, 0)),
    "variant_a": ("m.bump_session(K)", "sessions", lambda doc, k: doc.get(k, {}).get("turns", 0)),
    "variant_c": ("m.add_tool(K, 'x')", "tools", lambda doc, k: len(doc.get(k, []))),
    "try_import_sys": ("m.increment_turn_count(K)", "turns", lambda doc, k: doc.get(k, 0)),
    "helpers": ("m.increment_turn_count(K)", "turns", lambda doc, k: doc.get(k, 0)),
    "open_in_test": ("m.increment_turn_count(K)", "turns", lambda doc, k: doc.get(k, 0)),
    "importlib_helper": ("m.add_tool(K, 'x')", "tools", lambda doc, k: len(doc.get(k, []))),
    "try_handler": ("m.add_tool(K, 'x')", "tools", lambda doc, k: len(doc.get(k, []))),
    "local_import": ("m.add_tool(K, 'x')", "tools", lambda doc, k: len(doc.get(k, []))),
    "class_lock": ("m.add_tool(K, 'x')", "tools", lambda doc, k: len(doc.get(k, []))),
    "helper_take": ("m.add_tool(K, 'x')", "tools", lambda doc, k: len(doc.get(k, []))),
    "flag_guard": ("m.add_tool(K, 'x')", "tools", lambda doc, k: len(doc.get(k, []))),
    "data_file_handle": ("m.add_tool(K, 'x')", "tools", lambda doc, k: len(doc.get(k, []))),
}

# How each case reaches its unlocked path here: fcntl shapes as on Windows
# (sys.platform faked; variant_b imports fcntl in a try, so it is hidden while
# the module imports; local_import imports it when called, so it stays hidden,
# from everything but the binding, which imported it first); variant_c's
# fallback is the POSIX path itself (no msvcrt). class_lock's fix makes
# Windows take lockrt's flock stand-in, so its processes run as on Windows: no
# fcntl, os.name "nt" while the binding imports, and an msvcrt whose locking()
# is backed by POSIX record locks (per process, so processes exclude each other).
UNLOCKED_PATH = {"variant_b": "hide_fcntl", "variant_c": "posix", "try_import_sys": "hide_fcntl",
                 "try_handler": "hide_fcntl", "local_import": "no_fcntl", "class_lock": "fake_windows",
                 "helper_take": "fake_windows", "flag_guard": "fake_windows", "data_file_handle": "fake_windows"}

CONTENDER = r"""
import sys, importlib
sys.path.insert(0, sys.argv[1])
how = sys.argv[4]
if how == "win32":
    sys.platform = "win32"
elif how in ("hide_fcntl", "no_fcntl"):
    try:
        importlib.import_module("pkg.lockrt")  # the fix's binding uses the real fcntl
    except ImportError:
        pass
    real_fcntl = sys.modules.get("fcntl")
    sys.modules["fcntl"] = None
elif how == "fake_windows":
    import os, ctypes
    sys.path.insert(0, %r)
    import fake_msvcrt
    fake_msvcrt.install()
    os.name = "nt"
    try:
        importlib.import_module("pkg.lockrt")
    except ImportError:
        pass
    os.name = "posix"
m = importlib.import_module("pkg.state")
if how == "hide_fcntl":
    sys.modules["fcntl"] = real_fcntl
K, n = sys.argv[2], int(sys.argv[3])
binding = sys.modules.get("pkg.lockrt")
print("ready", binding.BACKEND if binding else "unpatched", flush=True)
sys.stdin.read(1)
for _ in range(n):
    %s
"""


def contend(work, case, procs, iters, env_extra, backend="unpatched"):
    import json

    call, state_name, count = CONTENTION[case]
    state = work / ("state-%d" % len(os.listdir(work)))
    state.mkdir()
    env = dict(os.environ, STATE_DIR=str(state), PYTHONDONTWRITEBYTECODE="1", **env_extra)
    workers = [
        subprocess.Popen([PYTHON, "-c", CONTENDER % (FAKE_MSVCRT_DIR, call), str(work), "k%d" % i, str(iters),
                          UNLOCKED_PATH.get(case, "win32")],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        for i in range(procs)
    ]
    for w in workers:
        assert w.stdout.readline().decode() == "ready %s\n" % backend
    for w in workers:
        w.stdin.write(b"g")
        w.stdin.flush()
    for w in workers:
        w.stdin.close()
        assert w.wait(timeout=120) == 0
    with open(state / state_name, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = json.loads(text)
    except ValueError:
        return None  # unlocked writers interleaved inside the file: worse than a lost update
    return sum(count(doc, "k%d" % i) for i in range(procs))


@pytest.mark.parametrize("case", sorted(CONTENTION))
def test_fixed_variant_loses_no_update_under_contention(tmp_path, case):
    procs, iters = 6, 30
    work = stage(tmp_path, case)
    unlocked = contend(work, case, procs, iters, {})
    assert unlocked is None or unlocked < procs * iters, "the unpatched module must lose updates (the test's teeth)"
    lockfix(["fix", "pkg", "--apply"], work, 1 if case in NO_FIX else 0)
    assert contend(work, case, procs, iters, {"LOCKRT_PURE_PYTHON": "1"}, "python") == procs * iters
    native = {"LOCKRT_LIBRARY": os.environ.get("LOCKFIX_LOCKRT_LIBRARY", "")}
    if os.environ.get("LOCKFIX_LOCKRT_PRELOAD"):  # sanitizer build: ASan runtime first
        native.update(LD_PRELOAD=os.environ["LOCKFIX_LOCKRT_PRELOAD"], ASAN_OPTIONS="detect_leaks=0")
    # Under the simulated Windows no lockrt.dll loads; the stand-in flock is pure Python anyway.
    if native["LOCKRT_LIBRARY"] and UNLOCKED_PATH.get(case) != "fake_windows":
        assert contend(work, case, procs, iters, native, "native") == procs * iters


# During a rollout some processes still run the old code and some the patched
# one, on the same lock file. The swapped-in lock must exclude the old one:
# flock against lockrt's flock does; lockf (POSIX record locks) against flock
# does not on Linux, which is why the fix declines lockf sites.
MIXED = r"""
import fcntl, json, os, sys, time
state, lock, key, n, form = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
sys.path.insert(0, sys.argv[6])
if form == "lockrt":
    import lockrt
print("ready", flush=True)
sys.stdin.read(1)
def rmw():
    try:
        with open(state) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        doc = {}
    doc[key] = doc.get(key, 0) + 1
    tmp = "%s.%d.tmp" % (state, os.getpid())
    with open(tmp, "w") as f:
        json.dump(doc, f)
    os.replace(tmp, state)
for _ in range(n):
    if form == "lockrt":
        with lockrt.exclusive_lock(lock) as acquired:
            assert acquired
            rmw()
    else:
        fd = os.open(lock, os.O_CREAT | os.O_RDWR, 0o600)
        getattr(fcntl, form)(fd, fcntl.LOCK_EX)
        try:
            rmw()
        finally:
            getattr(fcntl, form)(fd, fcntl.LOCK_UN)
            os.close(fd)
"""


def mixed_run(tmp_path, forms, iters=60, env_extra=None):
    import json

    state, lock = tmp_path / "state.json", tmp_path / "state.lock"
    binding_dir = tmp_path / "binding"
    binding_dir.mkdir(exist_ok=True)
    shutil.copy(BINDING, binding_dir / "lockrt.py")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **(env_extra or {}))
    workers = [subprocess.Popen([PYTHON, "-c", MIXED, str(state), str(lock), "k%d" % i, str(iters), form,
                                 str(binding_dir)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
               for i, form in enumerate(forms)]
    for w in workers:
        assert w.stdout.readline() == b"ready\n"
    for w in workers:
        w.stdin.write(b"g")
        w.stdin.flush()
    for w in workers:
        w.stdin.close()
        assert w.wait(timeout=300) == 0
    doc = json.loads(state.read_text())
    return sum(doc.get("k%d" % i, 0) for i in range(len(forms)))


@pytest.mark.parametrize("backend", ["python", "native"])
def test_old_flock_and_patched_lockrt_processes_exclude_each_other(tmp_path, backend):
    env = {"LOCKRT_PURE_PYTHON": "1"} if backend == "python" else {
        "LOCKRT_LIBRARY": os.environ.get("LOCKFIX_LOCKRT_LIBRARY", "")}
    assert backend == "python" or env["LOCKRT_LIBRARY"], "the build passes LOCKFIX_LOCKRT_LIBRARY"
    if backend == "native" and os.environ.get("LOCKFIX_LOCKRT_PRELOAD"):
        env.update(LD_PRELOAD=os.environ["LOCKFIX_LOCKRT_PRELOAD"], ASAN_OPTIONS="detect_leaks=0")
    forms = ["flock", "lockrt"] * 4
    assert mixed_run(tmp_path, forms, env_extra=env) == 60 * len(forms)


def test_lockf_does_not_exclude_lockrt_so_the_fix_declines_it(tmp_path):
    # The reason LF101 gives for lockf sites, shown with real processes: old
    # lockf processes and lockrt processes lose updates between them.
    forms = ["lockf", "lockrt"] * 4
    lost = 0
    for attempt in range(3):  # a loss needs an interleaving; three runs make it near certain
        run_dir = tmp_path / ("run%d" % attempt)
        run_dir.mkdir()
        lost += 60 * len(forms) - mixed_run(run_dir, forms, env_extra={"LOCKRT_PURE_PYTHON": "1"})
        if lost:
            break
    assert lost > 0
    work = stage(tmp_path / "case", "variant_b")
    proc = lockfix(["fix", "pkg", "--diff"], work, 1)
    assert proc.stdout == b""
    assert LOCKF_REASON.encode() in proc.stderr
