import os
import shutil
import subprocess

import pytest

SRC = os.environ.get("LOCKFIX_SRC") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("LOCKFIX_BIN") or os.path.join(SRC, "build", "analyzer", "lockfix")


def run(args, cwd, check_rc=None, env=None):
    proc = subprocess.run(args, cwd=cwd, capture_output=True, env=env)
    if check_rc is not None and proc.returncode != check_rc:
        raise AssertionError(
            "%s exited %d (wanted %d)\nstdout:\n%s\nstderr:\n%s"
            % (args, proc.returncode, check_rc, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace"))
        )
    return proc


def lockfix(args, cwd, check_rc=None):
    return run([BIN] + list(args), cwd, check_rc)


def need_tool(name):
    path = shutil.which(name)
    if not path:
        raise AssertionError("%s is required by this test (Debian package: %s)" % (name, name))
    return path


@pytest.fixture
def src_root():
    return SRC


def check_golden(golden, actual):
    """Compare actual bytes with the golden file. With LOCKFIX_REGEN_GOLDEN=1 a
    difference is written beside it as GOLDEN.new (never over it) for
    scripts/review-golden to show and accept; the test fails either way until
    the difference is accepted or the code fixed. A .new left in the tree fails
    tests/fix/test_no_pending_golden.py."""
    new = golden + ".new"
    expected = open(golden, "rb").read() if os.path.exists(golden) else None
    if os.environ.get("LOCKFIX_REGEN_GOLDEN") == "1":
        if actual != expected:
            with open(new, "wb") as f:
                f.write(actual)
        elif os.path.exists(new):
            os.remove(new)
    assert expected is not None, "%s is missing (LOCKFIX_REGEN_GOLDEN=1 writes %s, then scripts/review-golden)" % (
        golden, new)
    assert actual == expected, "output differs from %s (LOCKFIX_REGEN_GOLDEN=1 writes %s; review it with " \
        "scripts/review-golden)" % (golden, new)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def split_vendored(diff):
    """A `fix --diff` output split into (the diff without its file creations,
    {created path: content}): the vendored bindings are compared whole, not
    kept in the golden files."""
    at = diff.find(b"--- /dev/null\n")
    if at == -1:
        return diff, {}
    created = {}
    for part in diff[at:].split(b"--- /dev/null\n")[1:]:
        header, _, body = part.partition(b"\n")
        assert header.startswith(b"+++ b/"), header
        lines = body.split(b"\n")
        assert lines[0].startswith(b"@@ -0,0 +1"), lines[0]
        created[header[len(b"+++ b/"):].decode()] = b"".join(l[1:] + b"\n" for l in lines[1:] if l.startswith(b"+"))
    return diff[:at], created


def diff_and_apply_agree(tmp_path, case, stage, args):
    """`lockfix fix CASE --diff ARGS`, applied with `git apply` to one staged
    copy, and `fix --apply ARGS` on another write the same file. Returns the
    directory of the first (patched) copy."""
    need_tool("git")
    work = stage(tmp_path, case)
    patch_file = tmp_path / "fix.diff"
    patch_file.write_bytes(lockfix(["fix", case, "--diff"] + args, work).stdout)
    run(["git", "apply", "--unsafe-paths", str(patch_file)], work, 0)
    other = stage(tmp_path, case, "apply")
    lockfix(["fix", case, "--apply"] + args, other)
    assert read(other / case) == read(work / case)
    return work
