"""open_exclusive / open_exclusive_file / unlink_owned: the identity-bound
release of a module's own exclusively created lock (LF301's Python fix).

The bug they close: a holder that was judged stale and broken (its lock
removed, a successor's lock created at the same path) goes on to release "its"
lock by name and deletes the successor's. The scenario runs with real
processes: the holder, and a breaker that takes the lock over while the holder
is paused."""
import os
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import load_lockrt

# A holder process: creates the lock with the API under test, reports its
# inode, waits (paused) until told to release, releases, and reports.
HOLDER = textwrap.dedent("""
    import os, sys
    sys.path.insert(0, sys.argv[1])
    import lockrt
    path, form, release = sys.argv[2], sys.argv[3], sys.argv[4]
    if form == "fd":
        fd = lockrt.open_exclusive(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        os.write(fd, b"%d" % os.getpid())
        os.close(fd)
    else:
        with lockrt.open_exclusive_file(path, "x") as f:
            f.write(str(os.getpid()))
    print("held", os.stat(path).st_ino, flush=True)
    sys.stdin.readline()                      # paused here, past its lock's age limit
    if release == "owned":
        lockrt.unlink_owned(path)
    else:
        os.unlink(path)                       # the release by name the fix replaces
    print("released", flush=True)
""")


def breaker(path):
    """The module's stale takeover, run in this process: the holder's lock is
    judged stale, removed, and a successor's created in its place."""
    os.unlink(path)
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    os.write(fd, b"successor")
    os.close(fd)


def run_holder(tmp_path, form, release, monkeypatch):
    mod = load_lockrt("python", monkeypatch)
    lib_dir = os.path.dirname(mod.__file__)
    path = str(tmp_path / "job.lock")
    env = dict(os.environ, LOCKRT_PURE_PYTHON="1")
    p = subprocess.Popen([sys.executable, "-c", HOLDER, lib_dir, path, form, release], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, env=env, universal_newlines=True)
    line = p.stdout.readline().split()
    assert line[0] == "held", line
    return p, path, int(line[1])


@pytest.mark.parametrize("form", ["fd", "file"])
def test_paused_holder_release_leaves_the_successors_lock(tmp_path, monkeypatch, form):
    p, path, _ino = run_holder(tmp_path, form, "owned", monkeypatch)
    breaker(path)
    out, _ = p.communicate("go\n", timeout=60)
    assert p.returncode == 0 and out.strip() == "released"
    with open(path, "rb") as f:
        assert f.read() == b"successor"
    assert sorted(os.listdir(str(tmp_path))) == ["job.lock"]  # nothing left in quarantine


@pytest.mark.parametrize("form", ["fd", "file"])
def test_release_by_name_deletes_the_successors_lock(tmp_path, monkeypatch, form):
    """The same scenario with the release the fix replaces: the bug is real."""
    p, path, _ino = run_holder(tmp_path, form, "name", monkeypatch)
    breaker(path)
    out, _ = p.communicate("go\n", timeout=60)
    assert p.returncode == 0 and out.strip() == "released"
    assert not os.path.exists(path)


@pytest.mark.parametrize("form", ["fd", "file"])
def test_holder_releases_its_own_lock(tmp_path, monkeypatch, form):
    p, path, ino = run_holder(tmp_path, form, "owned", monkeypatch)
    assert os.stat(path).st_ino == ino
    out, _ = p.communicate("go\n", timeout=60)
    assert p.returncode == 0 and out.strip() == "released"
    assert os.listdir(str(tmp_path)) == []


def test_missing_raises_as_unlink_did(tmp_path, monkeypatch):
    lockrt = load_lockrt("python", monkeypatch)
    path = str(tmp_path / "x.lock")
    os.close(lockrt.open_exclusive(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    os.unlink(path)
    with pytest.raises(FileNotFoundError) as e:
        lockrt.unlink_owned(path)
    assert e.value.filename == path
    os.close(lockrt.open_exclusive(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    os.unlink(path)
    lockrt.unlink_owned(path, missing_ok=True)  # Path.unlink(missing_ok=True)


def test_unknown_path_is_removed_by_name(tmp_path, monkeypatch):
    lockrt = load_lockrt("python", monkeypatch)
    path = tmp_path / "made-elsewhere.lock"
    path.write_text("1")
    lockrt.unlink_owned(path)  # a PathLike, never created through lockrt here
    assert not path.exists()
    with pytest.raises(FileNotFoundError):
        lockrt.unlink_owned(str(path))
    lockrt.unlink_owned(str(path), missing_ok=True)


def test_symlink_put_at_the_path_is_left_alone(tmp_path, monkeypatch):
    lockrt = load_lockrt("python", monkeypatch)
    path = str(tmp_path / "x.lock")
    victim = tmp_path / "victim"
    victim.write_text("keep")
    os.close(lockrt.open_exclusive(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    os.unlink(path)
    os.symlink(str(victim), path)
    lockrt.unlink_owned(path)
    assert os.path.islink(path) and victim.read_text() == "keep"


def test_create_errors_and_non_exclusive_opens_unchanged(tmp_path, monkeypatch):
    lockrt = load_lockrt("python", monkeypatch)
    path = str(tmp_path / "x.lock")
    os.close(lockrt.open_exclusive(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    with pytest.raises(FileExistsError):
        lockrt.open_exclusive(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    with pytest.raises(FileExistsError):
        lockrt.open_exclusive_file(path, "x")
    # The failed creates forgot nothing: the first create is still ours.
    lockrt.unlink_owned(path)
    assert not os.path.exists(path)
    # A plain open is no create: its path is removed by name.
    with lockrt.open_exclusive_file(path, "w") as f:
        f.write("data")
    assert lockrt._release_owned(path) == "unknown"


def test_recreated_path_binds_the_newest_create(tmp_path, monkeypatch):
    lockrt = load_lockrt("python", monkeypatch)
    path = str(tmp_path / "x.lock")
    for _ in range(3):
        os.close(lockrt.open_exclusive(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        lockrt.unlink_owned(path)
        assert not os.path.exists(path)
    assert lockrt._owned == {}


# ---- the judged takeover: stat_judged / open_judged / ... + unlink_judged ----

BREAKER = textwrap.dedent("""
    import os, sys, time
    sys.path.insert(0, sys.argv[1])
    import lockrt
    path, judge = sys.argv[2], sys.argv[3]
    if judge == "mtime":
        stale = time.time() - lockrt.getmtime_judged(path) > 30
    elif judge == "stat":
        stale = time.time() - lockrt.stat_judged(path).st_mtime > 30
    elif judge == "read":
        with lockrt.open_judged(path) as f:
            stale = f.read() == "dead-owner"
    else:
        stale = lockrt.read_text_judged(path) == "dead-owner"
    print("judged", stale, flush=True)
    sys.stdin.readline()                      # paused between the judgement and the removal
    lockrt.unlink_judged(path)
    print("removed", flush=True)
""")


def judged_breaker(tmp_path, monkeypatch, judge):
    mod = load_lockrt("python", monkeypatch)
    path = str(tmp_path / "job.lock")
    with open(path, "w") as f:
        f.write("dead-owner")
    old = time.time() - 120
    os.utime(path, (old, old))
    env = dict(os.environ, LOCKRT_PURE_PYTHON="1")
    p = subprocess.Popen([sys.executable, "-c", BREAKER, os.path.dirname(mod.__file__), path, judge],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, universal_newlines=True)
    assert p.stdout.readline().split() == ["judged", "True"]
    return p, path


@pytest.mark.parametrize("judge", ["mtime", "stat", "read", "read_text"])
def test_judged_removal_leaves_a_lock_taken_since(tmp_path, monkeypatch, judge):
    p, path = judged_breaker(tmp_path, monkeypatch, judge)
    breaker(path)  # a faster breaker removed the stale lock and took it
    out, _ = p.communicate("go\n", timeout=60)
    assert p.returncode == 0 and out.strip() == "removed"
    with open(path, "rb") as f:
        assert f.read() == b"successor"
    assert not [n for n in os.listdir(str(tmp_path)) if "lockrt-release" in n]


@pytest.mark.parametrize("judge", ["mtime", "read"])
def test_judged_removal_leaves_a_refreshed_lock(tmp_path, monkeypatch, judge):
    p, path = judged_breaker(tmp_path, monkeypatch, judge)
    with open(path, "w") as f:  # its holder rewrote it in place (same inode, new mtime)
        f.write("live-owner")
    out, _ = p.communicate("go\n", timeout=60)
    assert p.returncode == 0
    with open(path) as f:
        assert f.read() == "live-owner"


@pytest.mark.parametrize("judge", ["mtime", "stat", "read", "read_text"])
def test_judged_removal_removes_the_stale_lock(tmp_path, monkeypatch, judge):
    p, path = judged_breaker(tmp_path, monkeypatch, judge)
    out, _ = p.communicate("go\n", timeout=60)
    assert p.returncode == 0 and out.strip() == "removed"
    assert not os.path.exists(path)
    assert sorted(os.listdir(str(tmp_path))) == [".job.lock.lockrt-break"]  # the breakers' flock file stays


def test_judgements_return_what_the_calls_return(tmp_path, monkeypatch):
    lockrt = load_lockrt("python", monkeypatch)
    path = tmp_path / "x.lock"
    path.write_text("1234\n")
    assert lockrt.stat_judged(path) == os.stat(str(path))
    assert lockrt.lstat_judged(str(path)) == os.lstat(str(path))
    assert lockrt.getmtime_judged(str(path)) == os.path.getmtime(str(path))
    assert lockrt.getctime_judged(str(path)) == os.path.getctime(str(path))
    assert lockrt.read_text_judged(path) == path.read_text()
    assert lockrt.read_bytes_judged(path) == path.read_bytes()
    with lockrt.open_judged(str(path), "rb") as f:
        assert f.read() == b"1234\n"
    for call in (lockrt.stat_judged, lockrt.getmtime_judged, lockrt.read_text_judged, lockrt.open_judged):
        with pytest.raises(FileNotFoundError):
            call(str(tmp_path / "missing"))
    lockrt.unlink_judged(path)
    assert not path.exists()
    with pytest.raises(FileNotFoundError):
        lockrt.unlink_judged(path)  # never judged since: by name, failing as os.unlink does
    lockrt.unlink_judged(path, missing_ok=True)
    # what is left: the judgements that found nothing at `missing`
    assert list(lockrt._judged) == [str(tmp_path / "missing")]
    assert lockrt.exists_judged(path) is False and lockrt.exists_judged(str(path)) is False
    path.write_text("x")
    assert lockrt.exists_judged(path) is True and lockrt.exists_judged(str(path)) is True


def test_a_removal_judged_on_nothing_there_leaves_what_appeared_since(tmp_path, monkeypatch):
    """`if not p.exists(): ...; p.unlink(missing_ok=True)`, or a read that
    found no file: a lock created in between is not the breaker's to remove."""
    lockrt = load_lockrt("python", monkeypatch)
    path = tmp_path / "x.lock"
    assert lockrt.exists_judged(path) is False
    path.write_text("successor")
    lockrt.unlink_judged(path, missing_ok=True)
    assert path.read_text() == "successor"
    with pytest.raises(FileNotFoundError):
        lockrt.read_text_judged(tmp_path / "other.lock")
    (tmp_path / "other.lock").write_text("successor")
    lockrt.unlink_judged(tmp_path / "other.lock")
    assert (tmp_path / "other.lock").read_text() == "successor"
    lockrt.unlink_judged(path)  # the judgement is spent: by name, as before
    assert not path.exists()


def test_one_judgement_binds_one_removal(tmp_path, monkeypatch):
    lockrt = load_lockrt("python", monkeypatch)
    path = str(tmp_path / "x.lock")
    with open(path, "w") as f:
        f.write("a")
    lockrt.stat_judged(path)
    os.unlink(path)
    with open(path, "w") as f:  # another object since the judgement
        f.write("b")
    lockrt.unlink_judged(path)  # left alone
    assert open(path).read() == "b"
    lockrt.unlink_judged(path)  # the judgement is spent: by name, as before
    assert not os.path.exists(path)


@pytest.mark.parametrize("judge", ["stat_judged", "getmtime_judged", "open_judged", "read_text_judged"])
def test_a_look_that_fails_otherwise_forgets_the_older_judgement(tmp_path, monkeypatch, judge):
    """A look that fails for another reason than a missing file (EACCES, EIO)
    judged nothing: a removal after it must not meet the judgement of an
    earlier look, of a lock since replaced, and leave the lock behind; it
    removes by name, as the module's own removal would."""
    lockrt = load_lockrt("python", monkeypatch)
    path = str(tmp_path / "x.lock")
    with open(path, "w") as f:
        f.write("old holder")
    lockrt.stat_judged(path)  # an earlier look, not followed by a removal
    os.unlink(path)
    with open(path, "w") as f:  # this process's own lock now
        f.write("mine")

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(os, "stat", denied)
    import builtins
    monkeypatch.setattr(builtins, "open", denied)
    with pytest.raises(PermissionError):
        getattr(lockrt, judge)(path)
    monkeypatch.undo()
    assert path not in lockrt._judged
    lockrt.unlink_judged(path)
    assert not os.path.exists(path)
