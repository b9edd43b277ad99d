"""The self-installing `lockfix` hook (language: script), as a new user meets it.

The hook repository is a local git repository holding this working tree (what
a clone of this repository at that commit holds); the user's repository is
fresh, with a .pre-commit-config.yaml naming it, `pre-commit install`ed, and no
lockfix anywhere on PATH. The first `git commit` builds lockfix inside
pre-commit's clone and blocks the commit that brings the bug class back; the
next commit reuses that build (the same binary file, not rebuilt) and passes.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

SRC = Path(os.environ["LOCKFIX_SRC"])
PRE_COMMIT = shutil.which("pre-commit")

from hook_sources import SAFE, UNSAFE, git


def hook_repository(dst):
    """A git repository with the working tree's files (tracked and new, not ignored)."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=SRC,
                           check=True, capture_output=True).stdout.decode().split("\0")
    dst.mkdir()
    for rel in filter(None, files):
        src = SRC / rel
        if not src.exists() and not src.is_symlink():
            continue  # deleted in the working tree
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst / rel, follow_symlinks=False)
    git(dst, "init", "-q")
    git(dst, "add", "-A")
    git(dst, "-c", "user.email=dev@example.invalid", "-c", "user.name=dev", "commit", "-q", "-m", "hook repo")
    return git(dst, "rev-parse", "HEAD").stdout.strip()


@pytest.fixture
def setup(tmp_path):
    if PRE_COMMIT is None:
        pytest.fail("pre-commit is not installed (Debian: apt-get install pre-commit)")
    if not (SRC / ".git").exists():
        pytest.skip("the source tree is not a git checkout")
    hooks = tmp_path / "lockfix-hooks"
    rev = hook_repository(hooks)
    repo = tmp_path / "work"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "dev@example.invalid")
    git(repo, "config", "user.name", "dev")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks.as_uri()}\n    rev: {rev}\n    hooks:\n      - id: lockfix\n")
    env = dict(os.environ)
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    env.pop("PRE_COMMIT", None)
    # No lockfix on PATH: the hook must bring its own.
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep)
                                  if not (Path(p) / "lockfix").exists())
    assert shutil.which("lockfix", path=env["PATH"]) is None
    subprocess.run([PRE_COMMIT, "install"], cwd=repo, env=env, check=True, capture_output=True, text=True)
    git(repo, "add", ".pre-commit-config.yaml")
    return repo, env, tmp_path / "pre-commit-home"


def built_binary(home):
    found = list(home.glob("repo*/.lockfix-hook-build/analyzer/lockfix"))
    assert len(found) == 1, found
    return found[0]


def commit(repo, env, message):
    return subprocess.run(["git", "commit", "-m", message], cwd=repo, env=env, capture_output=True, text=True,
                          timeout=1200)


def test_first_commit_builds_lockfix_and_blocks_then_the_build_is_reused(setup):
    repo, env, home = setup
    (repo / "state.py").write_text(UNSAFE)
    git(repo, "add", "state.py")
    r = commit(repo, env, "unsafe")
    out = r.stdout + r.stderr
    assert r.returncode != 0, out
    assert "lockfix hook: first use: building lockfix in" in out, out
    assert "state.py:5:11: LF401" in out, out
    assert subprocess.run(["git", "rev-parse", "--verify", "HEAD"], cwd=repo, capture_output=True).returncode != 0
    binary = built_binary(home)
    first = binary.stat()

    (repo / "state.py").write_text(SAFE)
    git(repo, "add", "state.py")
    r = commit(repo, env, "safe")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "lockfix (unsafe lock fallbacks)" in out and "Passed" in out, out
    assert "building lockfix" not in out
    again = built_binary(home).stat()
    assert (again.st_ino, again.st_mtime_ns) == (first.st_ino, first.st_mtime_ns)  # reused, not rebuilt

    # And it keeps blocking: the bug class brought back in another file.
    (repo / "other.py").write_text(UNSAFE)
    git(repo, "add", "other.py")
    r = commit(repo, env, "unsafe again")
    assert r.returncode != 0 and "other.py:5:11: LF401" in r.stdout + r.stderr
    assert "building lockfix" not in r.stdout + r.stderr


def test_a_machine_without_the_build_tools_gets_told_what_to_install(setup, tmp_path):
    repo, env, home = setup
    # Every command on PATH except the four the build starts with.
    bare = tmp_path / "bin"
    bare.mkdir()
    for d in env["PATH"].split(os.pathsep):
        for tool in Path(d).glob("*") if Path(d).is_dir() else ():
            if tool.name not in ("cmake", "cc", "make", "npm") and not (bare / tool.name).exists() \
                    and os.access(tool, os.X_OK):
                (bare / tool.name).symlink_to(tool)
    env = dict(env, PATH=str(bare))
    (repo / "state.py").write_text(SAFE)
    git(repo, "add", "state.py")
    r = commit(repo, env, "no tools")
    out = r.stdout + r.stderr
    assert r.returncode != 0, out
    assert "lockfix hook: cannot build lockfix: missing cmake a C compiler (cc) make npm" in out, out
    assert "sudo apt-get install -y cmake gcc make npm libcjson-dev" in out, out
