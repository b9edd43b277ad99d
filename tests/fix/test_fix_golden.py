"""Golden patches per fix shape: `lockfix fix --diff` must emit exactly
tests/fix/golden/<case>.diff for tests/fix/cases/<case>.py.in, the patch must
apply with both `git apply` and `patch -p1`, and fixing the patched file again
must find nothing to do.

Set LOCKFIX_REGEN_GOLDEN=1 to write GOLDEN.new beside each golden file that differs, then
review and accept them with scripts/review-golden."""

import os
import shutil
import sys

import pytest

from conftest import SRC, check_golden, lockfix, need_tool, run

PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
CASES_DIR = os.path.join(SRC, "tests", "fix", "cases")
GOLDEN_DIR = os.path.join(SRC, "tests", "fix", "golden")
CASES = sorted(f[: -len(".py.in")] for f in os.listdir(CASES_DIR) if f.endswith(".py.in"))

# Shapes the generators must decline, with the reason the finding carries.
NO_FIX = {
    "lf401_unrecognised": "LF401 not fixed: the temp is opened to read or append to what is there (not only created "
    'with "w"): a unique temp would start empty',
    "lf401_os_open_keep": "LF401 not fixed: the temp is opened to read or append to what is there (not only created "
    'with "w"): a unique temp would start empty',
    "lf401_handler_mixed": "LF401 not fixed: a handler of the `try` around the write does not remove the temp "
    "while another does: a unique temp would be left behind after the errors it catches (the fixed one was "
    "overwritten by the next write)",
    "lf401_named_in_try": "LF401 not fixed: the temp is named inside the `try` whose handler removes it: a handler "
    "added for the other errors could run before the name is bound",
    "lf401_derived_inline": "LF401 not fixed: the temp name is spelled out at each use; the fix names such a "
    "spelling only when it is a suffix added to the target (`path + \".tmp\"`)",
    "lf401_shadowed_uuid": "LF401 not fixed: `uuid` is bound to something other than the `uuid` module here, so the "
    "fix cannot import it",
    "lf303_shares_line_declined": "LF303 not fixed: the try runs other statements before the probe",
}


def stage(tmp_path, case):
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".py.in"), work / (case + ".py"))
    return work


@pytest.mark.parametrize("case", CASES)
def test_golden_patch(tmp_path, case):
    work = stage(tmp_path, case)
    proc = lockfix(["fix", case + ".py", "--diff"], work)
    golden = os.path.join(GOLDEN_DIR, case + ".diff")
    check_golden(golden, proc.stdout)
    if case in NO_FIX:
        assert proc.stdout == b""
        assert proc.returncode == 1
        assert NO_FIX[case] in proc.stderr.decode()
        return
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.startswith(b"--- a/%s.py\n+++ b/%s.py\n@@ " % (case.encode(), case.encode()))


@pytest.mark.parametrize("case", [c for c in CASES if c not in NO_FIX])
def test_golden_applies_with_git_and_patch_then_nothing_left(tmp_path, case):
    need_tool("git")
    need_tool("patch")
    work = stage(tmp_path, case)
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(lockfix(["fix", case + ".py", "--diff"], work, 0).stdout)
    run(["git", "apply", "--check", "--unsafe-paths", str(patch_file)], work, 0)
    run(["patch", "-p1", "--dry-run", "-i", str(patch_file)], work, 0)
    run(["patch", "-p1", "--quiet", "-i", str(patch_file)], work, 0)
    assert not list(work.glob("*.orig")) and not list(work.glob("*.rej"))
    # The patched file is exactly what --apply writes, and fixing it again does nothing.
    patched = (work / (case + ".py")).read_bytes()
    again = lockfix(["fix", case + ".py", "--diff"], work, 0)
    assert again.stdout == b""
    apply_dir = tmp_path / "apply"
    apply_dir.mkdir()
    shutil.copy(os.path.join(CASES_DIR, case + ".py.in"), apply_dir / (case + ".py"))
    lockfix(["fix", case + ".py", "--apply"], apply_dir, 0)
    assert (apply_dir / (case + ".py")).read_bytes() == patched
    scan = lockfix(["scan", case + ".py"], work)
    assert scan.returncode == 0, scan.stdout.decode()
    # ... and it compiles (a parse is not enough: a misplaced __future__ import parses).
    run([PYTHON, "-m", "py_compile", case + ".py"], work, 0)


def test_apply_through_a_symlink_argument_rewrites_its_target(tmp_path):
    work = stage(tmp_path, "lf401_basic")
    os.rename(work / "lf401_basic.py", work / "real.py")
    os.symlink("real.py", work / "link.py")
    diff = lockfix(["fix", "link.py", "--diff"], work, 0).stdout
    assert diff.startswith(b"--- a/link.py\n+++ b/link.py\n")
    lockfix(["fix", "link.py", "--apply"], work, 0)
    assert os.path.islink(work / "link.py") and os.readlink(work / "link.py") == "real.py"
    assert b"uuid.uuid4().hex" in (work / "real.py").read_bytes()


def test_crlf_file_is_fixed_with_crlf(tmp_path):
    work = stage(tmp_path, "lf401_basic")
    path = work / "lf401_basic.py"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    lockfix(["fix", "lf401_basic.py", "--apply"], work, 0)
    fixed = path.read_bytes()
    assert b"uuid.uuid4().hex" in fixed
    assert fixed.count(b"\n") == fixed.count(b"\r\n")
    lockfix(["fix", "lf401_basic.py", "--diff"], work, 0)
    assert lockfix(["fix", "lf401_basic.py", "--diff"], work, 0).stdout == b""


def hunks(diff_bytes):
    return [l for l in diff_bytes.splitlines(keepends=True) if not l.startswith((b"--- ", b"+++ "))]


@pytest.mark.parametrize("case", [c for c in CASES if c not in NO_FIX])
def test_hunks_match_gnu_diff(tmp_path, case):
    need_tool("diff")
    work = stage(tmp_path, case)
    ours = lockfix(["fix", case + ".py", "--diff"], work, 0).stdout
    original = tmp_path / "original.py"
    shutil.copy(work / (case + ".py"), original)
    lockfix(["fix", case + ".py", "--apply"], work, 0)
    gnu = run(["diff", "-u", str(original), str(work / (case + ".py"))], tmp_path, 1).stdout
    assert hunks(ours) == hunks(gnu)


def test_failed_write_leaves_no_temp_and_keeps_the_old_file(tmp_path):
    """A unique temp is never reused: after the fix, a write that fails removes
    its temp (the fixed `.tmp` name used to be overwritten by the next write)."""
    work = stage(tmp_path, "lf401_basic")
    lockfix(["fix", "lf401_basic.py", "--apply"], work, 0)
    data = tmp_path / "data"
    data.mkdir()
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "import lf401_basic as m\n"
        "m.save(%r, {'ok': 1})\n"
        "for _ in range(3):\n"
        "    try:\n"
        "        m.save(%r, {'bad': object()})\n"
        "    except TypeError:\n"
        "        pass\n"
        "    else:\n"
        "        raise SystemExit('the bad write did not fail')\n"
    ) % (str(work), str(data / "state.json"), str(data / "state.json"))
    run([sys.executable, "-c", code], work, 0)
    assert sorted(os.listdir(data)) == ["state.json"]
    assert (data / "state.json").read_text() == '{"ok": 1}'
