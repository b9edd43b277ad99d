"""What gets scanned: pruned directories, --exclude, symlinks, FIFOs, and files
that are reported on stderr and skipped (binary, invalid UTF-8, unreadable)."""
import json
import os

import pytest

import lfcli
from lfcli import STATE_PY, run, write


def scanned_paths(r):
    doc = json.loads(r.stdout)
    return sorted({f["path"] for f in doc["findings"]})


def test_pruned_directories_and_explicit_paths(tmp_path):
    for d in (".git", "node_modules", "build", "build-asan", "dist", "__pycache__", ".venv", "env", ".tox",
              "cmake-out", "src", "venv"):
        write(tmp_path / d / "state.py", STATE_PY)
    write(tmp_path / "cmake-out" / "CMakeCache.txt", "")
    write(tmp_path / "env" / "pyvenv.cfg", "")  # a virtualenv, by its marker
    r = run("scan", "--no-config", "--format", "json", ".", cwd=tmp_path)
    # "venv" without pyvenv.cfg is a package (CPython has one), not a virtualenv.
    assert scanned_paths(r) == ["src/state.py", "venv/state.py"]
    # A path named on the command line is scanned even inside a pruned directory.
    r = run("scan", "--no-config", "--format", "json", "build/state.py", "node_modules", cwd=tmp_path)
    assert scanned_paths(r) == ["build/state.py", "node_modules/state.py"]


def test_exclude_globs(tmp_path):
    for p in ("a/state.py", "a/gen/state.py", "b/state.py", "b/state_old.py"):
        write(tmp_path / p, STATE_PY)
    scan = lambda *a: scanned_paths(run("scan", "--no-config", "--format", "json", *a, ".", cwd=tmp_path))
    assert scan() == ["a/gen/state.py", "a/state.py", "b/state.py", "b/state_old.py"]
    assert scan("--exclude", "gen") == ["a/state.py", "b/state.py", "b/state_old.py"]
    assert scan("--exclude", "*_old.py", "--exclude", "a/**") == ["b/state.py"]
    assert scan("--exclude", "a/*.py") == ["a/gen/state.py", "b/state.py", "b/state_old.py"]
    # Named explicitly: scanned despite the glob, unless --force-exclude.
    r = run("scan", "--no-config", "--format", "json", "--exclude", "*_old.py", "b/state_old.py", cwd=tmp_path)
    assert scanned_paths(r) == ["b/state_old.py"]
    r = run("scan", "--no-config", "--format", "json", "--exclude", "*_old.py", "--force-exclude",
            "b/state_old.py", cwd=tmp_path)
    assert scanned_paths(r) == []


def test_symlinks_are_not_followed_out_of_the_root(tmp_path):
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    write(outside / "state.py", STATE_PY)
    write(root / "ok.py", "x = 1\n")
    os.symlink(outside / "state.py", root / "linked.py")
    os.symlink(outside, root / "linked_dir")
    os.symlink(".", root / "loop")  # would recurse forever if followed
    os.symlink("..", root / "up")
    r = run("scan", "--no-config", "--format", "json", "root", cwd=tmp_path, timeout=30)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["findings"] == []
    assert doc["summary"]["files_scanned"] == 1
    # Named explicitly, a symlink is followed (reported under the name given).
    r = run("scan", "--no-config", "--format", "json", "root/linked.py", cwd=tmp_path)
    assert scanned_paths(r) == ["root/linked.py"]


def test_fifo_does_not_block(tmp_path):
    write(tmp_path / "state.py", STATE_PY)
    os.mkfifo(tmp_path / "pipe.py")
    r = run("scan", "--no-config", ".", cwd=tmp_path, timeout=30)
    assert r.returncode == 1
    assert r.stderr == "lockfix: skipping pipe.py: not a regular file\n"
    r = run("scan", "--no-config", "pipe.py", cwd=tmp_path, timeout=30)
    assert r.returncode == 0
    assert r.stderr == "lockfix: skipping pipe.py: not a regular file\n"


def test_skipped_files_reported_not_fatal(tmp_path):
    write(tmp_path / "state.py", STATE_PY)
    write(tmp_path / "blob.py", "x = 1\n\0\0binary", mode="w")
    with open(tmp_path / "latin1.py", "wb") as f:
        f.write(b"# ok\nname = 'caf\xe9'\n")
    write(tmp_path / "notes.txt", "not source")
    r = run("scan", "--no-config", "--format", "json", ".", "notes.txt", cwd=tmp_path)
    assert r.returncode == 1  # the findings in state.py, not the skips
    assert r.stderr.splitlines() == [
        "lockfix: skipping notes.txt: unsupported file type (not .py .ts .mts .cts .js .mjs .cjs .tsx .jsx)",
        "lockfix: skipping blob.py: binary file (NUL byte)",
        "lockfix: skipping latin1.py: line 2: invalid UTF-8 (byte offset 16)",
    ]
    doc = json.loads(r.stdout)
    assert [(s["path"], s["kind"]) for s in doc["skipped"]] == [
        ("notes.txt", "unsupported"), ("blob.py", "binary"), ("latin1.py", "invalid-utf8")]
    assert doc["summary"]["files_skipped"] == 3
    assert doc["summary"]["files_scanned"] == 1
    # Skips alone never change the exit status.
    os.remove(tmp_path / "state.py")
    r = run("scan", "--no-config", ".", cwd=tmp_path)
    assert r.returncode == 0
    assert r.stdout == "No findings in 0 files; 2 files skipped.\n"


@pytest.mark.unprivileged
def test_unreadable_file_is_skipped():
    # Root reads files whatever their mode: as root, lockfix runs as uid 65534
    # (setpriv), so this case runs in every environment instead of skipping.
    with lfcli.unprivileged_tree() as tree:
        p = write(tree / "secret.py", "x = 1\n")
        p.chmod(0)
        # --no-cache: uid 65534 cannot create the cache in the tree either (tests/cache covers that warning)
        r = lfcli.run_unprivileged(["scan", "--no-config", "--no-cache", "."], cwd=tree)
    assert r.returncode == 0
    assert r.stderr == "lockfix: skipping secret.py: cannot open: Permission denied\n"


def test_deterministic_across_job_counts(tmp_path):
    for i in range(40):
        write(tmp_path / f"d{i % 7}" / f"m{i:02d}.py", STATE_PY if i % 3 == 0 else "x = 1\n")
    outs = {run("scan", "--no-config", "--format", "json", "-j", j, ".", cwd=tmp_path).stdout for j in (1, 2, 4, 16)}
    assert len(outs) == 1
    paths = [f["path"] for f in json.loads(outs.pop())["findings"]]
    assert paths == sorted(paths)
    assert len(paths) == 14 * 3
