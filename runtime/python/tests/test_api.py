"""Behaviour of the Python binding, on the native and the pure-Python backend."""
import fcntl
import os
import signal
import stat
import subprocess
import sys
import time

import pytest

import contention
from conftest import BACKENDS, load_lockrt

HOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "holder.py")


class Holder(object):
    """A separate process holding a lock (real exclusion needs real processes)."""

    def __init__(self, path, strategy, backend):
        self.proc = subprocess.Popen([contention.PYTHON, HOLDER, str(path), strategy],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=contention.base_env(backend))
        line = self.proc.stdout.readline().decode().split()
        assert line and line[0] == "held", line
        self.pid = int(line[1])
        self.strategy = line[2]
        self.token = line[3]

    def release(self):
        self.proc.stdin.close()
        assert self.proc.wait(timeout=30) == 0

    def kill(self, sig=signal.SIGKILL):
        self.proc.kill() if sig == signal.SIGKILL else self.proc.send_signal(sig)
        if sig == signal.SIGKILL:
            self.proc.wait(timeout=30)

    def cleanup(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def holders():
    made = []

    def make(path, strategy="auto", backend="native"):
        holder = Holder(path, strategy, backend)
        made.append(holder)
        return holder
    yield make
    for holder in made:
        holder.cleanup()


def backend_of(module):
    return module.BACKEND


# ---------------------------------------------------------------- exclusive_lock

def test_exclusive_lock_yields_true_and_leaves_the_lock_file(lockrt, tmp_path):
    path = tmp_path / "state.json.lock"
    with lockrt.exclusive_lock(str(path)) as acquired:
        assert acquired is True
        assert path.is_file()
    # The OS strategy never unlinks on release: an unlink under a waiter that
    # already opened the old inode would give two holders on two inodes.
    assert path.is_file()


def test_second_acquisition_in_the_same_process_is_excluded(lockrt, tmp_path):
    path = str(tmp_path / "l")
    with lockrt.exclusive_lock(path) as first:
        assert first
        with lockrt.exclusive_lock(path, timeout=0) as second:
            assert second is False
    with lockrt.exclusive_lock(path, timeout=0) as again:
        assert again is True


def test_acquire_returns_a_lock_object(lockrt, tmp_path):
    path = str(tmp_path / "l")
    lock = lockrt.acquire(path, timeout=1.0)
    assert lock is not None and lock.held
    assert lock.strategy == "oslock"
    assert lock.token == ""
    assert lockrt.acquire(path, timeout=0) is None
    lock.release()
    assert not lock.held
    lock.release()  # idempotent
    with lockrt.acquire(path, timeout=0) as relocked:
        assert relocked.held


def test_timeout_returns_false_while_another_process_holds(lockrt, tmp_path, holders):
    path = tmp_path / "l"
    holder = holders(path, backend=lockrt.TEST_BACKEND)
    started = time.monotonic()
    with lockrt.exclusive_lock(str(path), timeout=0.3) as acquired:
        waited = time.monotonic() - started
        assert acquired is False
    assert waited >= 0.25  # a bounded wait, not an immediate give-up
    holder.release()
    with lockrt.exclusive_lock(str(path), timeout=5) as acquired:
        assert acquired is True


def test_waiter_gets_the_lock_when_the_holder_releases(lockrt, tmp_path, holders):
    path = tmp_path / "l"
    holder = holders(path, backend=lockrt.TEST_BACKEND)
    subprocess.Popen(["sh", "-c", "sleep 0.3; kill -TERM %d" % holder.pid])
    with lockrt.exclusive_lock(str(path), timeout=30) as acquired:
        assert acquired is True


def test_sigkilled_holder_does_not_block_the_os_lock(lockrt, tmp_path, holders):
    path = tmp_path / "l"
    holder = holders(path, strategy="oslock" if lockrt.BACKEND == "native" else "auto",
                     backend=lockrt.TEST_BACKEND)
    holder.kill()
    with lockrt.exclusive_lock(str(path), timeout=5) as acquired:
        assert acquired is True


def test_with_the_library_every_wait_and_judgement_is_the_c_librarys(monkeypatch, tmp_path, holders):
    # Issue 11: with the library loaded, the binding keeps no wait loop and no
    # judgement of its own: acquisitions wait in the C library and the C library
    # judges what the lock file holds. Only exclusive_lock's warm, uncontended
    # fast path on an empty lock file stays in Python ("native-c" turns even
    # that off). The pure-Python ones are made to fail if anything calls them.
    path = str(tmp_path / "l")
    native = load_lockrt("native", monkeypatch)

    def forbidden(*args):
        raise AssertionError("the pure-Python wait or judgement ran with the library loaded")
    for name in ("_oslock_acquire", "_judge_record", "_record_bytes_hold", "_process_alive_py",
                 "_parse_record"):
        monkeypatch.setattr(native, name, forbidden)
    with native.acquire(path) as lock:
        assert lock._handle is not None and lock._fd is None and lock.strategy == "oslock"
    for _ in range(2):
        with native.exclusive_lock(path) as acquired:
            assert acquired
    assert path in native._fast_paths
    holder = holders(path, strategy="oslock")  # contended: the wait is C's
    with native.exclusive_lock(path, timeout=0.2) as acquired:
        assert acquired is False
    holder.release()
    with open(path, "wb") as fh:  # a live owner's record: C judges it
        fh.write(record_line(os.getpid(), os.uname().nodename))
    with native.exclusive_lock(path, timeout=0.1) as acquired:
        assert acquired is False
    assert native.process_alive(os.getpid()) == "alive"
    via_c = load_lockrt("native-c", monkeypatch)
    assert not via_c._FAST_ENTER
    with via_c.acquire(str(tmp_path / "m")) as lock:
        assert lock._handle is not None and lock.strategy == "oslock"


@pytest.mark.parametrize("holder_backend", ["native", "native-c", "python"])
def test_native_and_pure_python_exclude_each_other(native, tmp_path, holders, holder_backend, monkeypatch):
    # A patched program may run with the library in one process and without it
    # in another: both must take the same OS lock.
    path = tmp_path / "l"
    pure = load_lockrt("python", monkeypatch, name="lockrt_pure_peer")
    native_c = load_lockrt("native-c", monkeypatch, name="lockrt_native_c_peer")
    waiter = native_c if holder_backend == "python" else pure
    holder = holders(path, strategy="oslock" if holder_backend != "python" else "auto",
                     backend=holder_backend)
    with waiter.exclusive_lock(str(path), timeout=0.2) as acquired:
        assert acquired is False
    holder.release()
    with waiter.exclusive_lock(str(path), timeout=5) as acquired:
        assert acquired is True


# ------------------------------------------ OS lock meeting a lockfile-strategy owner record

def test_os_lock_waits_while_a_live_lockfile_holder_owns_the_file(lockrt, tmp_path, holders):
    # A process that forced the lockfile strategy holds the lock by its record;
    # our flock on that file would exclude nobody. Every backend must judge the
    # record as the C library does (docs/lockrt.md section 1), cold and warm.
    if not contention.LIBRARY:
        pytest.skip("the lockfile holder needs the native library (run through ctest)")
    path = tmp_path / "l"
    holder = holders(path, strategy="lockfile")
    for _ in range(2):
        with lockrt.exclusive_lock(str(path), timeout=0.2) as acquired:
            assert acquired is False
        assert lockrt.acquire(str(path), timeout=0) is None
    holder.kill()
    assert path.stat().st_size > 0  # the dead owner's record is still there
    with lockrt.exclusive_lock(str(path), timeout=5) as acquired:
        assert acquired is True


def record_line(pid, host, start_time=0):
    return ('{"pid":%d,"start_time":%d,"host":"%s","token":"0123abcd%s"}\n'
            % (pid, start_time, host, "0" * 24)).encode()


def test_os_lock_judges_records_by_host_and_liveness(lockrt, tmp_path):
    path = tmp_path / "l"
    with lockrt.exclusive_lock(str(path)) as acquired:  # warm the fast path
        assert acquired
    # another host: its processes cannot be seen, so it holds
    path.write_bytes(record_line(os.getpid(), "elsewhere.invalid"))
    with lockrt.exclusive_lock(str(path), timeout=0.1) as acquired:
        assert acquired is False
    # this host, a live process (this one): holds
    path.write_bytes(record_line(os.getpid(), os.uname().nodename))
    with lockrt.exclusive_lock(str(path), timeout=0.1) as acquired:
        assert acquired is False
    # this host, a pid that no longer exists: stale, the file is ours to lock
    child = subprocess.Popen(["true"])
    child.wait()
    path.write_bytes(record_line(child.pid, os.uname().nodename))
    with lockrt.exclusive_lock(str(path), timeout=1) as acquired:
        assert acquired is True
    # a live pid whose start time differs from the record's: reused, stale
    path.write_bytes(record_line(os.getpid(), os.uname().nodename, start_time=1))
    with lockrt.exclusive_lock(str(path), timeout=1) as acquired:
        assert acquired is True
    # bytes that are not an owner record do not hold anything (a live owner's
    # record with a byte too many, or spaces, is not one)
    live = record_line(os.getpid(), os.uname().nodename)
    for junk in (b"not a record\n", b'{"pid":1}\n', live + b"x", live.replace(b",", b", "), b"\xff\xfe"):
        path.write_bytes(junk)
        with lockrt.exclusive_lock(str(path), timeout=1) as acquired:
            assert acquired is True, junk
    assert path.read_bytes() == b"\xff\xfe"  # the OS lock never rewrites the file


# ------------------------------ descriptors kept between acquisitions (the Linux fast path)
# exclusive_lock keeps the unlocked descriptor of a lock file after release and
# reuses it; none of this may weaken what a fresh descriptor guarantees.

def open_fds():
    return set(os.listdir("/proc/self/fd"))


def warm(module, path, times=3):
    for _ in range(times):
        with module.exclusive_lock(path) as acquired:
            assert acquired


# The backends with exclusive_lock's fast path on Linux (kept descriptors); the
# C library ("native-c") opens a descriptor per lock and unlocks explicitly in
# any process, so these cases do not apply to it (not generated, never skipped).
FAST_BACKENDS = [b for b in BACKENDS if b != "native-c"]


@pytest.fixture(params=FAST_BACKENDS)
def fast_lockrt(request, monkeypatch):
    module = load_lockrt(request.param, monkeypatch)
    assert module._FAST_ENTER, "the %s backend has no fast path on this system" % request.param
    return module


def forked(child):
    """Run child() in a forked process; its exit status is 0 when it returned True."""
    pid = os.fork()
    if pid == 0:
        code = 2
        try:
            code = 0 if child() is True else 1
        finally:
            os._exit(code)
    return pid


def exit_code(pid):
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_a_warm_lock_still_excludes_a_second_acquisition_in_the_process(lockrt, tmp_path):
    path = str(tmp_path / "l")
    warm(lockrt, path)
    with lockrt.exclusive_lock(path) as first:
        assert first
        with lockrt.exclusive_lock(path, timeout=0) as second:
            assert second is False
        assert lockrt.acquire(path, timeout=0) is None
    with lockrt.exclusive_lock(path, timeout=0) as again:
        assert again is True


@pytest.mark.parametrize("fork_handlers", ["run", "skipped"])
def test_a_forked_child_never_locks_through_the_parents_kept_descriptor(lockrt, tmp_path, monkeypatch,
                                                                        fork_handlers):
    # The child inherits the kept descriptor, which shares the parent's open file
    # description: a flock through it would succeed while the parent holds the
    # lock. "skipped" simulates a fork that runs no at-fork handlers (fork()
    # called from C): then the pid stored with the descriptor must refuse it.
    path = str(tmp_path / "l")
    warm(lockrt, path)
    if fork_handlers == "skipped":
        monkeypatch.setattr(lockrt, "_after_fork_in_child", lambda: None)
    go_r, go_w = os.pipe()

    def child():
        os.read(go_r, 1)
        with lockrt.exclusive_lock(path, timeout=0) as acquired:
            return acquired is False
    pid = forked(child)
    with lockrt.exclusive_lock(path) as acquired:
        assert acquired
        os.write(go_w, b"x")
        assert exit_code(pid) == 0
    os.close(go_r)
    os.close(go_w)


@pytest.mark.parametrize("fork_handlers", ["run", "skipped"])
def test_a_child_forked_inside_the_block_does_not_release_the_parents_lock(fast_lockrt, tmp_path, monkeypatch,
                                                                           fork_handlers):
    lockrt = fast_lockrt
    path = str(tmp_path / "l")
    warm(lockrt, path)
    if fork_handlers == "skipped":
        monkeypatch.setattr(lockrt, "_after_fork_in_child", lambda: None)
    held = lockrt.exclusive_lock(path)
    assert held.__enter__() is True

    def child():
        held.__exit__(None, None, None)  # the child leaves the block too
        return True
    assert exit_code(forked(child)) == 0
    assert lockrt.acquire(path, timeout=0) is None  # still the parent's
    held.__exit__(None, None, None)
    lock = lockrt.acquire(path, timeout=0)
    assert lock is not None
    lock.release()


def test_a_kept_descriptor_closed_and_reused_behind_our_back_is_not_trusted(fast_lockrt, tmp_path):
    lockrt = fast_lockrt
    path = str(tmp_path / "l")
    warm(lockrt, path)
    (fd, _dev, _ino, _pid), = lockrt._kept_fds.values()
    os.close(fd)  # code that closes descriptors it does not own (a daemonizer)
    other = tmp_path / "other"
    other.write_bytes(b"")
    reused = os.open(str(other), os.O_RDWR)
    if reused != fd:  # the kernel hands out the lowest free number, normally fd
        os.dup2(reused, fd)
        os.close(reused)
        reused = fd
    with lockrt.exclusive_lock(path) as acquired:
        assert acquired
        assert lockrt.acquire(path, timeout=0) is None  # the lock file itself is locked
        probe = os.open(str(other), os.O_RDWR)
        fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)  # and nothing was locked through `reused`
        os.close(probe)
    os.fstat(reused)  # not closed by lockrt either
    os.close(reused)


@pytest.mark.parametrize("change", ["replaced", "unlinked"])
def test_a_lock_file_changed_while_its_descriptor_is_kept_is_locked_afresh(lockrt, tmp_path, change):
    path = tmp_path / "l"
    warm(lockrt, str(path))
    before = open_fds()
    if change == "replaced":
        (tmp_path / "new").write_bytes(b"")
        os.replace(str(tmp_path / "new"), str(path))  # a foreign tool replaces the file
    else:
        path.unlink()  # a foreign cleaner removes it
    with lockrt.exclusive_lock(str(path)) as acquired:
        assert acquired
        probe = os.open(str(path), os.O_RDWR)
        with pytest.raises(BlockingIOError):  # the inode the name now names is the locked one
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.close(probe)
    assert open_fds() <= before  # the orphan's descriptor closed (at most the new one kept)


def test_kept_descriptors_are_bounded_and_can_be_closed_or_refused(lockrt, tmp_path, monkeypatch):
    before = open_fds()
    for i in range(24):
        warm(lockrt, str(tmp_path / ("l%d" % i)))
    assert len(open_fds() - before) == (16 if lockrt._FAST_ENTER else 0)
    lockrt.close_idle_descriptors()
    assert open_fds() == before
    monkeypatch.setenv("LOCKRT_PY_KEEP_FD", "0")
    keeps_none = load_lockrt(lockrt.TEST_BACKEND, monkeypatch, name="lockrt_keeps_none")
    for i in range(3):
        warm(keeps_none, str(tmp_path / ("m%d" % i)))
    assert open_fds() == before


def test_symlink_at_the_lock_path_is_refused_and_not_followed(lockrt, tmp_path):
    target = tmp_path / "victim"
    target.write_bytes(b"precious")
    link = tmp_path / "l"
    link.symlink_to(target)
    with pytest.raises(lockrt.LockrtError) as info:
        with lockrt.exclusive_lock(str(link)):
            pass
    assert info.value.status == lockrt.ESYMLINK
    assert info.value.code == "LOCKRT_ESYMLINK"
    assert target.read_bytes() == b"precious"
    assert link.is_symlink()


@pytest.mark.parametrize("obstacle", ["symlink", "directory", "missing_dir"])
def test_unlocked_on_error_runs_the_block_unlocked_and_keeps_the_error(lockrt, tmp_path, obstacle):
    # What code that swallowed its own lock attempt's OSError did, kept by
    # lockfix's LF101 rewrite: the block runs, unlocked, and nothing is touched.
    target = tmp_path / "victim"
    target.write_bytes(b"precious")
    lock_path = tmp_path / "l"
    if obstacle == "symlink":
        lock_path.symlink_to(target)
    elif obstacle == "directory":
        lock_path.mkdir()
    else:
        lock_path = tmp_path / "no-such-dir" / "l"
    ran = []
    ctx = lockrt.exclusive_lock(str(lock_path), unlocked_on_error=True)
    with ctx as acquired:
        ran.append(acquired)
    assert ran == [False]
    assert isinstance(ctx.error, OSError)
    assert target.read_bytes() == b"precious"
    # Without the option the same obstacle raises, as before.
    with pytest.raises(OSError):
        with lockrt.exclusive_lock(str(lock_path)):
            pass


def test_unlocked_on_error_still_locks_when_it_can(lockrt, tmp_path, holders):
    path = str(tmp_path / "l")
    with lockrt.exclusive_lock(path, unlocked_on_error=True) as acquired:
        assert acquired
    holder = holders(path, backend=lockrt.TEST_BACKEND)
    ctx = lockrt.exclusive_lock(path, timeout=0.2, unlocked_on_error=True)
    with ctx as acquired:
        assert not acquired  # held by a live process: a timeout, not an error
    assert ctx.error is None
    holder.release()


def test_dangling_symlink_at_the_lock_path_creates_nothing(lockrt, tmp_path):
    link = tmp_path / "l"
    link.symlink_to(tmp_path / "would-be-created")
    with pytest.raises(lockrt.LockrtError) as info:
        lockrt.acquire(str(link), timeout=0)
    assert info.value.status == lockrt.ESYMLINK
    assert not (tmp_path / "would-be-created").exists()


def test_directory_at_the_lock_path_is_refused(lockrt, tmp_path):
    (tmp_path / "l").mkdir()
    with pytest.raises(lockrt.LockrtError) as info:
        lockrt.acquire(str(tmp_path / "l"), timeout=0)
    assert info.value.status in (lockrt.EBADTYPE, lockrt.EIO)


def test_nul_in_the_lock_path_is_einval(lockrt, tmp_path):
    with pytest.raises(lockrt.LockrtError) as info:
        lockrt.acquire(str(tmp_path / "l") + "\0suffix", timeout=0)
    assert info.value.status == lockrt.EINVAL
    assert os.listdir(str(tmp_path)) == []


def test_unknown_strategy_is_einval(lockrt, tmp_path):
    with pytest.raises(lockrt.LockrtError) as info:
        lockrt.acquire(str(tmp_path / "l"), strategy="bogus")
    assert info.value.status == lockrt.EINVAL


def test_error_carries_status_and_strerror_text(lockrt):
    err = lockrt.LockrtError(lockrt.ESYMLINK, None, "/x")
    assert isinstance(err, OSError)
    assert err.status == -3 and err.code == "LOCKRT_ESYMLINK"
    assert err.message == lockrt.strerror(lockrt.ESYMLINK) and err.message
    assert "LOCKRT_ESYMLINK" in str(err) and "/x" in str(err)


# ---------------------------------------------------------------- confined_path

@pytest.mark.parametrize("name", ["", ".", "..", "a/b", "../x", "a\\b", "a\x00b", "a\nb", "a\x1fb", "a\x7fb"])
def test_confined_path_rejects_unsafe_names(lockrt, tmp_path, name):
    with pytest.raises(lockrt.ConfinementError) as info:
        lockrt.confined_path(str(tmp_path), name)
    assert isinstance(info.value, ValueError) and isinstance(info.value, lockrt.LockrtError)
    assert info.value.status in (lockrt.EESCAPE, lockrt.EINVAL)


def test_confined_path_joins_a_missing_target(lockrt, tmp_path):
    assert lockrt.confined_path(str(tmp_path), "sess-1.json") == os.path.join(str(tmp_path), "sess-1.json")
    assert not (tmp_path / "sess-1.json").exists()


def test_confined_path_accepts_missing_target_in_symlinked_state_dir(lockrt, tmp_path):
    real = tmp_path / "real-state"
    real.mkdir()
    linked = tmp_path / "state"
    linked.symlink_to(real, target_is_directory=True)
    # realpath(missing target) vs realpath(dir) disagreed in the original guard.
    assert lockrt.confined_path(str(linked), "turns.json") == os.path.join(str(linked), "turns.json")
    (real / "turns.json").write_text("{}")
    assert lockrt.confined_path(str(linked), "turns.json") == os.path.join(str(linked), "turns.json")


def test_confined_path_refuses_a_symlink_escaping_the_dir(lockrt, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (tmp_path / "secret").write_text("x")
    (state / "evil.json").symlink_to(tmp_path / "secret")
    (state / "dangling-out.json").symlink_to(tmp_path / "nowhere")
    for name in ("evil.json", "dangling-out.json"):
        with pytest.raises(lockrt.ConfinementError) as info:
            lockrt.confined_path(str(state), name)
        assert info.value.status in (lockrt.EESCAPE, lockrt.ESYMLINK)


def test_confined_path_accepts_a_symlink_staying_inside(lockrt, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "real.json").write_text("{}")
    (state / "alias.json").symlink_to(state / "real.json")
    assert lockrt.confined_path(str(state), "alias.json") == os.path.join(str(state), "alias.json")


# ---------------------------------------------------------------- write_atomic

def test_write_atomic_str_bytes_and_replace(lockrt, tmp_path):
    path = tmp_path / "s.json"
    lockrt.write_atomic(str(path), '{"a": 1}')
    assert path.read_bytes() == b'{"a": 1}'
    lockrt.write_atomic(str(path), b"\x00\x01binary")
    assert path.read_bytes() == b"\x00\x01binary"
    lockrt.write_atomic(str(path), "ünïcode")
    assert path.read_text(encoding="utf-8") == "ünïcode"
    lockrt.write_atomic(str(path), b"")
    assert path.read_bytes() == b""
    assert sorted(os.listdir(str(tmp_path))) == ["s.json"]  # no temp left behind


def test_write_atomic_new_file_is_readable_by_others(lockrt, tmp_path):
    path = tmp_path / "new.json"
    lockrt.write_atomic(str(path), "{}")
    assert stat.S_IMODE(path.stat().st_mode) & 0o044 == 0o044 & ~_umask() & 0o044


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_write_atomic_into_missing_dir_raises_and_leaves_nothing(lockrt, tmp_path):
    with pytest.raises(OSError):
        lockrt.write_atomic(str(tmp_path / "missing" / "s.json"), "{}")
    assert os.listdir(str(tmp_path)) == []


def test_write_atomic_replaces_a_symlink_not_its_target(lockrt, tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("keep")
    link = tmp_path / "s.json"
    link.symlink_to(victim)
    lockrt.write_atomic(str(link), "new")
    assert victim.read_text() == "keep"
    assert not link.is_symlink() and link.read_text() == "new"


# ---------------------------------------------------------------- process_alive

def test_process_alive_self_dead_and_reused(lockrt):
    me = os.getpid()
    assert lockrt.process_alive(me) == "alive"
    start = lockrt.process_start_time(me)
    assert start is not None and start > 0
    assert lockrt.process_alive(me, start) == "alive"
    assert lockrt.process_alive(me, start + 1) == "dead"  # same pid, other process
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert lockrt.process_alive(child.pid) == "dead"


def test_process_start_time_matches_proc(lockrt):
    if not os.path.exists("/proc/self/stat"):
        pytest.skip("no /proc")
    with open("/proc/%d/stat" % os.getpid(), "rb") as fh:
        raw = fh.read()
    expected = int(raw[raw.rindex(b")") + 2:].split()[19])
    assert lockrt.process_start_time(os.getpid()) == expected


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to drop privileges")
def test_eperm_counts_as_alive(lockrt):
    # An unprivileged process probing a root-owned one gets EPERM: alive.
    env = contention.base_env(lockrt.TEST_BACKEND)
    code = ("import os,sys; sys.path.insert(0, %r); from worker import load_lockrt; "
            "l = load_lockrt(%r); os.setgid(65534); os.setuid(65534); "
            "print(l.BACKEND, l.process_alive(%d))" % (os.path.dirname(os.path.abspath(__file__)),
                                                       contention.PY_DIR, os.getpid()))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, stdout=subprocess.PIPE,
                         cwd="/").stdout.decode().split()
    assert out == [lockrt.BACKEND, "alive"]


# ---------------------------------------------------------------- lockfile strategy (native)

def test_lockfile_strategy_record_and_release(native, tmp_path):
    path = str(tmp_path / "l")
    lock = native.acquire(path, timeout=1, strategy="lockfile")
    assert lock.strategy == "lockfile"
    assert len(lock.token) > 0
    owner = native.owner_read(path)
    assert owner["pid"] == os.getpid() and owner["token"] == lock.token
    assert owner["start_time"] == native.process_start_time(os.getpid())
    assert native.acquire(path, timeout=0, strategy="lockfile") is None
    assert native.release_if_owned(path, "not-" + lock.token) is False
    assert os.path.exists(path)
    lock.release()
    assert not os.path.exists(path)


def test_lockfile_strategy_forced_by_environment(native, tmp_path, monkeypatch):
    monkeypatch.setenv("LOCKRT_STRATEGY", "lockfile")
    with native.acquire(str(tmp_path / "l")) as lock:
        assert lock.strategy == "lockfile"


def test_lockfile_timeout_with_live_holder_and_reclaim_after_kill(native, tmp_path, holders):
    path = tmp_path / "l"
    holder = holders(path, strategy="lockfile")
    assert holder.strategy == "lockfile"
    assert native.reclaim_if_stale(str(path)) is False  # owner alive: held
    with native.exclusive_lock(str(path), timeout=0.2, strategy="lockfile") as acquired:
        assert acquired is False
    assert native.owner_read(str(path))["token"] == holder.token
    holder.kill()
    assert native.process_alive(holder.pid) == "dead"
    assert native.reclaim_if_stale(str(path)) is True
    assert not path.exists()
    assert native.reclaim_if_stale(str(path)) is False  # nothing left to reclaim


def test_lockfile_acquire_reclaims_a_dead_holders_record(native, tmp_path, holders):
    path = tmp_path / "l"
    holder = holders(path, strategy="lockfile")
    holder.kill()
    with native.exclusive_lock(str(path), timeout=10, strategy="lockfile") as acquired:
        assert acquired is True
        assert native.owner_read(str(path))["pid"] == os.getpid()


def test_release_if_owned_with_the_holders_token(native, tmp_path, holders):
    path = tmp_path / "l"
    holder = holders(path, strategy="lockfile")
    holder.kill()
    assert native.release_if_owned(str(path), "someone-else") is False
    assert path.exists()
    assert native.release_if_owned(str(path), holder.token) is True
    assert not path.exists()


# ---------------------------------------------------------------- pure-Python specifics

def test_pure_python_has_no_lockfile_strategy(monkeypatch, tmp_path):
    pure = load_lockrt("python", monkeypatch)
    assert pure.LIBRARY is None and "LOCKRT_PURE_PYTHON" in pure.LOAD_ERROR
    for call in (lambda: pure.acquire(str(tmp_path / "l"), strategy="lockfile"),
                 lambda: pure.release_if_owned(str(tmp_path / "l"), "t"),
                 lambda: pure.reclaim_if_stale(str(tmp_path / "l"))):
        with pytest.raises(pure.LockrtError) as info:
            call()
        assert info.value.status == pure.ENOTSUP


def test_a_warm_lock_path_still_refuses_what_a_cold_one_refuses(lockrt, tmp_path, monkeypatch):
    # The first acquisition of a path warms the binding's fast path; later ones
    # must apply every rule all the same.
    path = tmp_path / "l"
    for _ in range(2):
        with lockrt.exclusive_lock(str(path)) as acquired:
            assert acquired
    victim = tmp_path / "victim"
    victim.write_text("precious")
    path.unlink()
    path.symlink_to(victim)
    with pytest.raises(lockrt.LockrtError) as info:
        with lockrt.exclusive_lock(str(path)):
            pass
    assert info.value.status == lockrt.ESYMLINK and victim.read_text() == "precious"
    path.unlink()
    os.mkfifo(str(path))
    with pytest.raises(lockrt.LockrtError) as info:
        with lockrt.exclusive_lock(str(path), timeout=0):
            pass
    assert info.value.status == lockrt.EBADTYPE
    path.unlink()
    if lockrt.BACKEND == "native":
        with lockrt.exclusive_lock(str(path)):
            pass
        path.unlink()  # an OS lock file left at the path would read as a corrupt (held) record
        monkeypatch.setenv("LOCKRT_STRATEGY", "lockfile")
        with lockrt.exclusive_lock(str(path), timeout=1) as acquired:
            assert acquired and lockrt.owner_read(str(path))["pid"] == os.getpid()
        assert not path.exists()
