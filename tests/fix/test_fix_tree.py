"""`lockfix fix` over a temporary copy of the whole fixture tree (never the repo's):
the diff is deterministic and applies with git apply and patch -p1, --apply writes
the same result, a second run has nothing to do, the fixed tree scans clean for
LF201/LF401 (LF101 stays: its fix comes with the runtime), and every integration's
pytest suite passes before and after."""

import os
import shutil
import stat
import subprocess
import sys

import pytest

from conftest import SRC, lockfix, need_tool, run

INTEGRATIONS = sorted(os.listdir(os.path.join(SRC, "fixtures", "integrations")))
INTEGRATIONS = [i for i in INTEGRATIONS if os.path.isdir(os.path.join(SRC, "fixtures", "integrations", i))]
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    shutil.copytree(
        os.path.join(SRC, "fixtures"), root / "fixtures", ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache")
    )
    return root


def snapshot(root):
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = fh.read()
    return out


def findings(root, *extra):
    proc = lockfix(["scan", "fixtures", "--format", "json"] + list(extra), root)
    assert proc.returncode in (0, 1), proc.stderr.decode()
    import json

    return sorted((f["path"], f["line"], f["column"], f["rule_id"]) for f in json.loads(proc.stdout)["findings"])


def run_suites(root):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    for name in INTEGRATIONS:
        proc = subprocess.run(
            [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", os.path.join("fixtures", "integrations", name)],
            cwd=root,
            capture_output=True,
            env=env,
        )
        assert proc.returncode == 0, "%s suite failed:\n%s" % (name, proc.stdout.decode())


def test_diff_is_deterministic_and_applies(tree, tmp_path):
    need_tool("git")
    need_tool("patch")
    first = lockfix(["fix", "fixtures", "--diff"], tree, 1)
    again = lockfix(["fix", "fixtures", "--diff", "--jobs", "1"], tree, 1)
    assert first.stdout == again.stdout and first.stdout
    golden = os.path.join(SRC, "tests", "fix", "golden", "fixtures.diff")
    if os.environ.get("LOCKFIX_REGEN_GOLDEN") == "1":
        with open(golden, "wb") as f:
            f.write(first.stdout)
    with open(golden, "rb") as f:
        assert first.stdout == f.read()
    patch_file = tmp_path / "fixtures.diff"
    patch_file.write_bytes(first.stdout)
    before = snapshot(tree)
    run(["git", "apply", "--check", str(patch_file)], tree, 0)
    run(["patch", "-p1", "--dry-run", "-i", str(patch_file)], tree, 0)
    assert snapshot(tree) == before
    # 8 files, each with one LF201 and one LF401 fix.
    assert first.stdout.count(b"\n--- a/fixtures/integrations/") + first.stdout.startswith(b"--- a/") == 8
    assert b"lockfix: diff of 16 fixes in 8 files; 11 findings left without a safe fix" in first.stderr
    # What is left: the 9 LF101 sites (fix needs the runtime) and cline's 2 LF104
    # (suggestion only), each named with its reason.
    left = [l for l in first.stderr.decode().splitlines() if " not fixed: " in l]
    assert sorted(l.split(": ")[1].split()[0] for l in left) == ["LF101"] * 9 + ["LF104"] * 2

    # patch -p1 and --apply produce the same tree.
    patched = tmp_path / "patched"
    shutil.copytree(tree, patched)
    run(["patch", "-p1", "--quiet", "-i", str(patch_file)], patched, 0)
    lockfix(["fix", "fixtures", "--apply"], tree, 1)
    assert snapshot(tree) == snapshot(patched)


def test_apply_twice_fixes_then_nothing_and_suites_pass(tree):
    run_suites(tree)
    state_py = tree / "fixtures" / "integrations" / "omo" / "lib" / "state.py"
    os.chmod(state_py, 0o754)
    before = findings(tree)
    assert sum(1 for f in before if f[3] == "LF201") == 8 and sum(1 for f in before if f[3] == "LF401") == 8

    first = lockfix(["fix", "fixtures", "--apply"], tree, 1)
    assert b"lockfix: applied 16 fixes in 8 files; 11 findings left without a safe fix" in first.stderr
    assert first.stdout == b""
    assert stat.S_IMODE(os.stat(state_py).st_mode) == 0o754
    fixed = snapshot(tree)
    leftovers = [p for p in fixed if ".lockfix-" in p]
    assert leftovers == []

    second = lockfix(["fix", "fixtures", "--apply"], tree, 1)
    assert b"lockfix: applied 0 fixes in 0 files; 11 findings left without a safe fix" in second.stderr
    assert snapshot(tree) == fixed
    assert lockfix(["fix", "fixtures", "--diff"], tree, 1).stdout == b""

    after = findings(tree)
    assert [f for f in after if f[3] in ("LF201", "LF401")] == []
    # Nothing else changed: the other findings are where they were, line shifts aside.
    assert sorted(f[3] for f in after) == sorted(f[3] for f in before if f[3] not in ("LF201", "LF401"))
    assert lockfix(["scan", "fixtures", "--select", "LF201,LF401"], tree, 0)
    run_suites(tree)


def test_exit_codes(tree):
    # Everything selected is fixable: 0, both as a diff and applied.
    lockfix(["fix", "fixtures", "--select", "LF201,LF401", "--diff"], tree, 0)
    lockfix(["fix", "fixtures/negative"], tree, 0)
    bad = lockfix(["fix", "fixtures", "--diff", "--apply"], tree, 2)
    assert b"exclusive" in bad.stderr
    assert b"unknown option" in lockfix(["fix", "--bogus"], tree, 2).stderr
    lockfix(["fix", "does-not-exist"], tree, 2)
    help_text = lockfix(["fix", "--help"], tree, 0).stdout.decode()
    for needle in ("--diff", "--apply", "Exit status:", "--select", "--exclude", "--config"):
        assert needle in help_text
    # --apply writes nothing when every fix is deselected.
    before = snapshot(tree)
    lockfix(["fix", "fixtures", "--apply", "--ignore", "LF201,LF401"], tree, 1)
    assert snapshot(tree) == before
    # --exclude keeps a whole integration untouched.
    lockfix(["fix", "fixtures", "--apply", "--exclude", "cline"], tree, 1)
    after = snapshot(tree)
    changed = sorted(p for p in after if after[p] != before[p])
    assert len(changed) == 7 and not any("/cline/" in p for p in changed)


def test_refuses_file_that_does_not_parse(tree):
    bad = tree / "fixtures" / "integrations" / "cline" / "lib" / "broken.py"
    bad.write_text(
        "import os\n\ndef write(path, data):\n    tmp = path + \".tmp\"\n    with open(tmp, \"w\") as f:\n"
        "        f.write(data)\n    os.replace(tmp, path)\n\ndef oops(:\n    pass\n"
    )
    proc = lockfix(["fix", "fixtures/integrations/cline", "--apply"], tree, 2)
    assert (
        b"lockfix fix: fixtures/integrations/cline/lib/broken.py: refusing fixes: the file does not parse cleanly "
        b"before any fix" in proc.stderr
    )
    assert bad.read_text().endswith("def oops(:\n    pass\n")
    # The other files were still fixed.
    assert b"applied 2 fixes in 1 file" in proc.stderr
