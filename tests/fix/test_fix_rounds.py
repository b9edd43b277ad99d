"""One `lockfix fix --unsafe-fixes` run does what two runs would.

When an unsafe fix (LF104's lock around a read-modify-write) overlaps a safe
one (LF401's unique temp name inside that read-modify-write), the file's fix
set is refused as a whole, the unsafe fixes are taken out and the safe ones
applied alone. The fixer then analyses the fixed text again and applies the
left-out fixes on top (cli_fix.c, second_round), so the patch is the same as
two runs in a row and a second run finds nothing to do ("applying it twice
changes nothing"). Without --unsafe-fixes only the safe fix is applied.

Cases: tests/fix/rounds/*.in; goldens: tests/fix/golden/rounds_<case>.diff.
"""
import json
import os
import shutil

import pytest

from conftest import SRC, check_golden, lockfix, need_tool, run

CASES_DIR = os.path.join(SRC, "tests", "fix", "rounds")
GOLDEN_DIR = os.path.join(SRC, "tests", "fix", "golden")
CASES = sorted(f[: -len(".in")] for f in os.listdir(CASES_DIR) if f.endswith(".in"))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"


def stage(tmp_path, case, name):
    work = tmp_path / name
    work.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".in"), work / case)
    return work


def rewrite_part(diff):
    """The diff of the module itself, without the vendored files it creates."""
    at = diff.find(b"--- /dev/null\n")
    return diff if at == -1 else diff[:at]


@pytest.mark.parametrize("case", CASES)
def test_one_run_applies_the_safe_and_the_overlapping_unsafe_fix(tmp_path, case):
    work = stage(tmp_path, case, "work")
    proc = lockfix(["fix", case, "--diff", "--unsafe-fixes"], work, 0)
    assert "fixed LF104 (unsafe fix), LF401 in %s" % case in proc.stderr.decode()
    assert "diff of 2 fixes in 1 file; 0 findings left" in proc.stderr.decode()
    check_golden(os.path.join(GOLDEN_DIR, "rounds_%s.diff" % case), rewrite_part(proc.stdout))

    # --apply writes what the diff shows, and a second run has nothing to do.
    applied = stage(tmp_path, case, "apply")
    lockfix(["fix", case, "--apply", "--unsafe-fixes"], applied, 0)
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(proc.stdout)
    run([need_tool("patch"), "-p1", "--quiet", "-i", str(patch_file)], work, 0)
    assert (applied / case).read_bytes() == (work / case).read_bytes()
    assert lockfix(["fix", case, "--diff", "--unsafe-fixes"], applied, 0).stdout == b""
    scan = lockfix(["scan", case, "--format", "json"], applied, 0).stdout
    assert b'"findings": []' in scan
    if case.endswith(".py"):
        run([PYTHON, "-m", "py_compile", case], applied, 0)


@pytest.mark.parametrize("case", CASES)
def test_without_unsafe_fixes_only_the_safe_fix_is_applied(tmp_path, case):
    work = stage(tmp_path, case, "work")
    proc = lockfix(["fix", case, "--apply"], work, 1)
    err = proc.stderr.decode()
    assert "fixed LF401 in %s" % case in err
    assert "LF104 not fixed: an unsafe fix is left out: it is applied only with --unsafe-fixes" in err
    # The unsafe fix now applies alone, and then nothing is left.
    lockfix(["fix", case, "--apply", "--unsafe-fixes"], work, 0)
    assert lockfix(["fix", case, "--diff", "--unsafe-fixes"], work, 0).stdout == b""


ANNOUNCED_DIR = os.path.join(SRC, "tests", "fix", "announced")


@pytest.mark.parametrize("case", ["pidlock.py", "pidlock.js"])
def test_a_finding_left_after_a_fix_is_announced_before_it(tmp_path, case):
    """A probe that reads EPERM as dead and also trusts a reused pid is one
    LF303 finding (the fixable EPERM read) whose message announces the pid
    reuse; after the fix, exactly that pid-reuse finding is left, at the same
    place, and a second fix run changes nothing. In TS/JS the one fix covers
    both (the probe becomes lockrt.cjs's killProbeSync): nothing is left."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(os.path.join(ANNOUNCED_DIR, case), work / case)

    def lf303():
        out = lockfix(["scan", case, "--format", "json", "--no-cache"], work).stdout
        return [(f["line"], f["column"], f["message"]) for f in json.loads(out)["findings"] if f["rule_id"] == "LF303"]

    (before,) = lf303()
    assert "EPERM" in before[2]
    if case.endswith(".js"):
        # TS/JS: the same fix also swaps the probe for lockrt.cjs's killProbeSync,
        # which reads a process started after the pid file was written as gone
        assert before[2].endswith("it also trusts a reused pid (no start-time check)")
        lockfix(["fix", case, "--apply"], work, 0)
        assert b"killProbeSync(pid, LOCK)" in (work / case).read_bytes()
        assert lf303() == []
        assert lockfix(["fix", case, "--diff", "--unsafe-fixes"], work).stdout == b""
        return
    assert before[2].endswith("it also trusts a reused pid (no start-time check), reported once this is fixed")
    lockfix(["fix", case, "--apply"], work, 0)
    (after,) = lf303()
    assert after[:2] == before[:2]
    assert "start time" in after[2] and "EPERM" not in after[2]
    assert lockfix(["fix", case, "--diff", "--unsafe-fixes"], work).stdout == b""
