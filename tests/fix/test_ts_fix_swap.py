"""The protocol swap (TS/JS; fixes/lf_tsswap.c, sem/lf_tsproto.c), LF302's
UNSAFE fix when the age lies in a module's own lock protocol
(tests/fix/ts/swap/cases/<case>.in): the function's retry loop (an exclusive
create, an age test, a takeover, a release by name) becomes lockrt's
takeLock (takeLockSync; for a lock directory made with mkdir, takeLockDir or
takeLockDirSync), with the timeout's outcome, the held code and the
function's signature kept, and the declarations only the old wait used
removed.

`lockfix fix --unsafe-fixes --diff` must emit tests/fix/ts/swap/golden/<case>.diff
byte for byte, in one run (the LF301 call-site fixes of the first round are
replaced by the swap in the second). The patch applies, equals what --apply
writes, passes `node --check` (and `tsc --noEmit --strict --noUnusedLocals`
for the TypeScript case, which type-checks before the fix too), a second run
has nothing to do and a scan finds nothing left. Without --unsafe-fixes only
the safe call-site fixes apply. decline_* cases get no swap (their reasons:
tests/sem/test_tsproto.c).

Real processes through each fixed module's own API (bump(): a read-modify-
write of a JSON counter under the module's lock, held longer than the lock's
50 ms age limit): as written, waiters break the live holder's lock and
updates are lost; patched, none is.

Set LOCKFIX_REGEN_GOLDEN=1 to write GOLDEN.new beside each golden file that
differs, then review and accept them with scripts/review-golden."""

import json
import os
import pathlib
import shutil
import subprocess

import pytest

from conftest import SRC, check_golden, diff_and_apply_agree, lockfix, need_tool, read, run, split_vendored

CASES_DIR = os.path.join(SRC, "tests", "fix", "ts", "swap", "cases")
GOLDEN_DIR = os.path.join(SRC, "tests", "fix", "ts", "swap", "golden")
VENDOR = os.path.join(SRC, "runtime", "node", "vendor")
TOOLS = pathlib.Path(os.environ.get("LOCKFIX_TOOLS_DIR", os.path.join(SRC, "build", "tools")))
CASES = sorted(f[: -len(".in")] for f in os.listdir(CASES_DIR) if f.endswith(".in"))
SWAPPED = [c for c in CASES if not c.startswith("decline_")]
DECLINED = [c for c in CASES if c.startswith("decline_")]
UNSAFE = ["--unsafe-fixes"]


def stage(tmp_path, case, name="work"):
    work = tmp_path / name
    work.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".in"), work / case)
    (work / "package.json").write_text('{"type": "module"}\n')
    return work


@pytest.mark.parametrize("case", SWAPPED)
def test_golden_swap(tmp_path, case):
    work = stage(tmp_path, case)
    proc = lockfix(["fix", case, "--diff"] + UNSAFE, work)
    rewrite, created = split_vendored(proc.stdout)
    # The swap keeps what callers see: a helper that hands back a release
    # doing nothing once its deadline passes still does (its LF101 finding
    # stays, with no fix: what to do without the lock is the owner's choice).
    # Nothing else is left.
    left = [line for line in proc.stderr.decode().splitlines() if "not fixed" in line]
    noop = [line for line in left if " LF101 not fixed: the helper chose to go on without the lock" in line]
    assert left == noop, proc.stderr.decode()
    assert len(noop) == (case == "best_effort_swallow.mjs"), proc.stderr.decode()
    check_golden(os.path.join(GOLDEN_DIR, case + ".diff"), rewrite)
    assert created["lockrt.cjs"] == read(os.path.join(VENDOR, "lockrt.cjs"))


@pytest.mark.parametrize("case", SWAPPED)
def test_swap_applies_parses_and_is_idempotent(tmp_path, case):
    work = diff_and_apply_agree(tmp_path, case, stage, UNSAFE)
    if not case.endswith(".ts"):
        run([need_tool("node"), "--check", case], work, 0)
    assert lockfix(["fix", case, "--diff"] + UNSAFE, work).stdout == b""
    scan = lockfix(["scan", case], work)
    assert b"LF30" not in scan.stdout, scan.stdout.decode()


@pytest.mark.parametrize("case", DECLINED)
def test_declined_protocol_keeps_its_loop(tmp_path, case):
    work = stage(tmp_path, case)
    rewrite, _ = split_vendored(lockfix(["fix", case, "--diff"] + UNSAFE, work).stdout)
    assert b"takeLock" not in rewrite


def test_the_findings_inside_the_protocol_take_the_swap_in_one_run(tmp_path):
    """LF301's call-site fixes inside the loop would overlap the swap: under
    --unsafe-fixes those findings get the swap too (the same edits), marked
    unsafe, and one run leaves nothing."""
    work = stage(tmp_path, "wrapper_handle.ts")
    proc = lockfix(["fix", "wrapper_handle.ts", "--diff"] + UNSAFE, work)
    assert ("wrapper_handle.ts: fixed LF301 x2 (unsafe fix), LF302 (unsafe fix) in wrapper_handle.ts"
            in proc.stderr.decode()), proc.stderr.decode()


def test_without_unsafe_fixes_only_the_call_sites_change(tmp_path):
    work = stage(tmp_path, "wrapper_handle.ts")
    proc = lockfix(["fix", "wrapper_handle.ts", "--diff"], work)
    rewrite, _ = split_vendored(proc.stdout)
    assert b"takeLock" not in rewrite and b"unlinkOwned" in rewrite
    assert "wrapper_handle.ts: fixed LF301 x2 in wrapper_handle.ts" in proc.stderr.decode()
    assert "LF302 not fixed: an unsafe fix is left out" in proc.stderr.decode()


def tsc():
    exe = TOOLS / "node_modules" / "typescript" / "bin" / "tsc"
    types = TOOLS / "node_modules" / "@types" / "node"
    if not exe.exists() or not types.exists():
        pytest.fail(f"{exe} is missing: run `ctest -R formats.tools_setup` (npm ci of deps/tools)")
    return exe


def type_check(work, case):
    (work / "tsconfig.json").write_text(json.dumps({
        "compilerOptions": {"strict": True, "noUnusedLocals": True, "noEmit": True, "module": "nodenext",
                            "moduleResolution": "nodenext", "target": "es2022", "types": ["node"],
                            "typeRoots": [str(TOOLS / "node_modules" / "@types")], "skipLibCheck": True},
        "files": [case]}))
    return subprocess.run([need_tool("node"), str(tsc()), "-p", "tsconfig.json"], cwd=work, capture_output=True,
                          text=True, timeout=300)


def test_the_typescript_case_type_checks_before_and_after(tmp_path):
    case = "wrapper_handle.ts"
    before = stage(tmp_path, case, "before")
    got = type_check(before, case)
    assert got.returncode == 0, got.stdout + got.stderr
    after = stage(tmp_path, case, "after")
    lockfix(["fix", case, "--apply"] + UNSAFE, after)
    assert b"takeLock" in read(after / case)
    got = type_check(after, case)
    assert got.returncode == 0, got.stdout + got.stderr


# ---- real processes through the module's own bump() ----

BUMP = {
    "best_effort_swallow.mjs": "import(process.argv[1]).then(async (m) => {{ let done = 0, errors = 0; "
                               "for (let i = 0; i < {n}; i++) {{ try {{ await m.bump(process.argv[2], {hold}); "
                               "done++; }} catch (e) {{ errors++; }} }} console.log(JSON.stringify({{ done, errors }})); "
                               "}})",
    "acquire_deadline.mjs": "import(process.argv[1]).then(async (m) => {{ let done = 0, errors = 0; "
                            "for (let i = 0; i < {n}; i++) {{ try {{ await m.bump(process.argv[2], {hold}); done++; }} "
                            "catch (e) {{ errors++; }} }} console.log(JSON.stringify({{ done, errors }})); }})",
    "dir_record.mjs": "import(process.argv[1]).then(async (m) => {{ let done = 0, errors = 0; "
                      "for (let i = 0; i < {n}; i++) {{ try {{ await m.bump(process.argv[2], {hold}); done++; }} "
                      "catch (e) {{ errors++; }} }} console.log(JSON.stringify({{ done, errors }})); }})",
    "dir_sync.cjs": "const m = require(process.argv[1]); let done = 0, errors = 0; "
                    "for (let i = 0; i < {n}; i++) {{ try {{ m.bump(process.argv[2], {hold}); done++; }} "
                    "catch (e) {{ errors++; }} }} console.log(JSON.stringify({{ done, errors }}));",
    "sync_writefile.cjs": "const m = require(process.argv[1]); let done = 0, errors = 0; "
                          "for (let i = 0; i < {n}; i++) {{ try {{ m.bump(process.argv[2], {hold}); done++; }} "
                          "catch (e) {{ errors++; }} }} console.log(JSON.stringify({{ done, errors }}));",
}
PROCS, EACH, HOLD_MS = 3, 6, 120  # held longer than the modules' 50 ms age limit


def contend(module, doc, modules=None, each=EACH, hold=HOLD_MS):
    """PROCS processes x EACH bump() calls (or one process per entry of
    `modules`, each through its own copy): (increments kept, calls that
    returned, calls that threw)."""
    script = BUMP[module.name].format(n=each, hold=hold)
    procs = [subprocess.Popen([need_tool("node"), "-e", script, str(m), str(doc)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for m in (modules or [module] * PROCS)]
    done = errors = 0
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
        got = json.loads(out.decode().strip().splitlines()[-1])
        done += got["done"]
        errors += got["errors"]
    return json.loads(doc.read_text())["n"], done, errors


@pytest.mark.parametrize("case", sorted(BUMP))
@pytest.mark.parametrize("fixed", [False, True])
def test_contention_through_the_modules_api(tmp_path, case, fixed):
    work = stage(tmp_path, case, "fixed" if fixed else "orig")
    if fixed:
        lockfix(["fix", case, "--apply"] + UNSAFE, work)
        assert b"takeLock" in read(work / case)
    doc = tmp_path / ("counter-%d.json" % fixed)
    kept, done, errors = contend(work / case, doc)
    if fixed:
        assert (kept, done, errors) == (PROCS * EACH, PROCS * EACH, 0)
        assert sorted(os.listdir(tmp_path / "fixed")) == sorted([case, "package.json", "lockrt.cjs"])
    else:
        # as written, a holder past the age limit loses its lock to a waiter:
        # updates are lost, or a holder's release finds its lock gone
        assert kept < done or errors > 0, (kept, done, errors)
    assert not (tmp_path / (doc.name + ".lock")).exists()


def test_old_and_new_processes_share_a_lock_directory(tmp_path):
    """A rollout: processes of the unpatched module and of the swapped one run
    together on one lock directory. Each one's mkdir fails on the other's
    directory (a new holder's holds lockrt's record, so the old code's rmdir
    cannot remove it; an old holder's has none, so lockrt waits on it), and
    with sections shorter than the old code's 50 ms age limit no update is
    lost. (The old code's limit is raised to 5 s here, so that a stalled
    machine does not make two old processes break each other's locks: that
    is the bug the swap removes, not what this test is about.)"""
    case = "dir_sync.cjs"
    old = stage(tmp_path, case, "old")
    new = stage(tmp_path, case, "new")
    for work in (old, new):
        text = (work / case).read_text()
        assert "const STALE_MS = 50;" in text
        (work / case).write_text(text.replace("const STALE_MS = 50;", "const STALE_MS = 5000;"))
    lockfix(["fix", case, "--apply"] + UNSAFE, new)
    assert b"takeLockDirSync" in read(new / case)
    doc = tmp_path / "counter.json"
    got = contend(old / case, doc, modules=[old / case, new / case, old / case, new / case], each=25, hold=5)
    assert got == (100, 100, 0)
    assert not (tmp_path / (doc.name + ".lock")).exists()
