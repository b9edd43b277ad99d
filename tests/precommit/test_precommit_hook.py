"""The shipped pre-commit hook blocks a commit that brings the bug class back.

Runs Debian's pre-commit with `try-repo` on this checkout's
.pre-commit-hooks.yaml (so the hook definition itself is what is tested), in a
scratch git repository, with the freshly built lockfix first on PATH: the
`lockfix-system` hook, for a machine where lockfix is installed. The
self-installing `lockfix` hook is tested in test_self_installing_hook.py.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hook_sources import SAFE, TS_SOURCES, UNSAFE, git

SRC = Path(os.environ["LOCKFIX_SRC"])
BIN = Path(os.environ["LOCKFIX_BIN"])
PRE_COMMIT = shutil.which("pre-commit")


@pytest.fixture
def repo(tmp_path):
    if PRE_COMMIT is None:
        pytest.fail("pre-commit is not installed (Debian: apt-get install pre-commit)")
    if not (SRC / ".git").exists():
        pytest.skip("the source tree is not a git checkout: pre-commit try-repo needs one")
    repo = tmp_path / "work"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "dev@example.invalid")
    git(repo, "config", "user.name", "dev")
    return repo


def run_hook(repo, tmp_path, *files):
    env = dict(os.environ)
    env["PATH"] = f"{BIN.parent}{os.pathsep}{env['PATH']}"
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    env.pop("PRE_COMMIT", None)
    return subprocess.run(
        [PRE_COMMIT, "try-repo", str(SRC), "lockfix-system", "--files", *files],
        cwd=repo, env=env, capture_output=True, text=True, timeout=240)


def test_hook_rejects_a_shared_temp_name(repo, tmp_path):
    (repo / "state.py").write_text(UNSAFE)
    git(repo, "add", "state.py")
    r = run_hook(repo, tmp_path, "state.py")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "state.py:5:11: LF401" in r.stdout, r.stdout


@pytest.mark.parametrize("ext", sorted(TS_SOURCES))
def test_hook_rejects_a_shared_temp_name_in_ts_and_js(repo, tmp_path, ext):
    """Every TS/JS extension reaches lockfix through the hook's types_or, and the
    safe version of the same module passes."""
    unsafe, safe = TS_SOURCES[ext]
    name = "state." + ext
    (repo / name).write_text(unsafe)
    git(repo, "add", name)
    r = run_hook(repo, tmp_path, name)
    assert r.returncode == 1, r.stdout + r.stderr
    assert name + ":4:15: LF401" in r.stdout, r.stdout
    (repo / name).write_text(safe)
    git(repo, "add", name)
    r = run_hook(repo, tmp_path, name)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Passed" in r.stdout, r.stdout


def test_hook_passes_safe_code_and_ignores_other_files(repo, tmp_path):
    (repo / "state.py").write_text(SAFE)
    (repo / "notes.txt").write_text(UNSAFE)  # not a source type: never handed to lockfix
    git(repo, "add", "state.py", "notes.txt")
    r = run_hook(repo, tmp_path, "state.py", "notes.txt")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Passed" in r.stdout, r.stdout


def test_hook_honours_config_excludes_for_named_files(repo, tmp_path):
    # pre-commit names files explicitly; --force-exclude keeps the config's globs in force.
    (repo / "vendor").mkdir()
    (repo / "vendor" / "state.py").write_text(UNSAFE)
    (repo / ".lockfix.json").write_text('{"exclude": ["vendor/**"]}\n')
    git(repo, "add", "vendor/state.py", ".lockfix.json")
    r = run_hook(repo, tmp_path, "vendor/state.py")
    assert r.returncode == 0, r.stdout + r.stderr
