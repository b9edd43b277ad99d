"""Issue 11, item 4: a file at a lock path that is not a complete, well-formed
owner record is never removed, whatever its age or size, by any backend; it is
left byte for byte, and every wait ends within its timeout."""
import hashlib
import os
import subprocess
import time

import pytest

TIMEOUT = 0.3
HANG_GUARD = 10.0  # not a timing test: a wait that read a huge file whole would take minutes
TEN_YEARS = 10 * 365 * 24 * 3600


def dead_pid():
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def record(pid, host=None, token="f0" + "0" * 30):
    host = host if host is not None else os.uname().nodename
    return ('{"pid":%d,"start_time":0,"host":"%s","token":"%s"}\n' % (pid, host, token)).encode()


def make_sparse(path, head, tail):
    """At least 4 GiB, 1 TiB where the filesystem allows (reading it whole would
    take minutes)."""
    with open(path, "wb") as fh:
        for size in (1 << 40, 1 << 36, 1 << 32):
            try:
                fh.truncate(size)
            except OSError:
                continue
            fh.seek(0)
            fh.write(head)
            fh.seek(size - len(tail))
            fh.write(tail)
            return size
    pytest.fail("no sparse file of at least 4 GiB on this filesystem")


def make_foreign(path, kind):
    pid = dead_pid()  # a record naming it would be reclaimable
    rec = record(pid)
    if kind == "json":  # a user's 2 MB JSON file that even carries the record's keys
        head = rec[:-2] + b',"data":"'
        path.write_bytes(head + b"x" * ((2 << 20) - len(head) - 3) + b'"}\n')
    elif kind == "garbage":
        path.write_bytes(bytes((i * 37 + 11) % 256 for i in range(200)))
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "sparse":
        make_sparse(str(path), rec[:-1], b"\n")
    elif kind == "trailing":  # a dead owner's record, then one byte more
        path.write_bytes(rec + b"x")
    elif kind == "duplicate":  # a dead owner's record with its pid given twice
        path.write_bytes(rec.replace(b'{"pid":%d,' % pid, b'{"pid":%d,"pid":%d,' % (pid, pid)))
    else:
        raise AssertionError(kind)


def snapshot(path):
    """Inode, size, mtime, ctime (a rename or a write changes it), allocated
    blocks, both ends, and for files up to 64 MiB a hash of every byte."""
    st = os.lstat(str(path))
    with open(str(path), "rb") as fh:
        head = fh.read(64)
        fh.seek(max(0, st.st_size - 64))
        tail = fh.read(64)
        digest = None
        if st.st_size <= 64 << 20:
            fh.seek(0)
            digest = hashlib.sha256(fh.read()).hexdigest()
    return (st.st_dev, st.st_ino, st.st_size, st.st_blocks, st.st_mtime_ns, st.st_ctime_ns, head, tail, digest)


KINDS = ["json", "garbage", "empty", "sparse", "trailing", "duplicate"]


@pytest.mark.parametrize("age", ["young", "old"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_foreign_file_at_the_lock_path_is_left_byte_for_byte(lockrt, tmp_path, kind, age):
    path = tmp_path / ("%s-%s.lock" % (kind, age))
    make_foreign(path, kind)
    if age == "old":
        past = time.time() - TEN_YEARS
        os.utime(str(path), (past, past))
    before = snapshot(path)

    with pytest.raises(lockrt.LockrtError) as info:
        lockrt.owner_read(str(path))
    assert info.value.status == lockrt.ECORRUPT

    if lockrt.BACKEND == "native":
        for call in (lambda: lockrt.reclaim_if_stale(str(path)),
                     lambda: lockrt.release_if_owned(str(path), "f0" + "0" * 30)):
            with pytest.raises(lockrt.LockrtError) as info:
                call()
            assert info.value.status == lockrt.ECORRUPT
        # lockfile strategy: held while young (the wait times out), reported once old
        started = time.monotonic()
        if age == "young":
            with lockrt.exclusive_lock(str(path), timeout=TIMEOUT, strategy="lockfile") as acquired:
                assert acquired is False
        else:
            with pytest.raises(lockrt.LockrtError) as info:
                with lockrt.exclusive_lock(str(path), timeout=TIMEOUT, strategy="lockfile"):
                    pass
            assert info.value.status == lockrt.ECORRUPT and "never removes it" in str(info.value)
        assert time.monotonic() - started < HANG_GUARD
    else:
        with pytest.raises(lockrt.LockrtError) as info:
            lockrt.acquire(str(path), timeout=TIMEOUT, strategy="lockfile")
        assert info.value.status == lockrt.ENOTSUP

    # OS lock strategy (forced, and the default on a local filesystem, cold and
    # warm): the flock is the lock; the file is not read past a record's size,
    # not changed, not removed.
    started = time.monotonic()
    with lockrt.exclusive_lock(str(path), timeout=TIMEOUT, strategy="oslock") as acquired:
        assert acquired is True
    for _ in range(3):
        with lockrt.exclusive_lock(str(path), timeout=TIMEOUT) as acquired:
            assert acquired is True
    assert time.monotonic() - started < HANG_GUARD

    assert snapshot(path) == before
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # nothing quarantined or left


def test_a_live_owner_record_with_one_flaw_is_not_one(lockrt, tmp_path):
    # The OS lock defers to a live owner's record; the same bytes with a flaw
    # (trailing junk, a duplicate key, a short token) are not a record and hold
    # nothing, on every backend alike.
    path = tmp_path / "l"
    live = record(os.getpid())
    path.write_bytes(live)
    with lockrt.exclusive_lock(str(path), timeout=0.1) as acquired:
        assert acquired is False
    assert lockrt.owner_read(str(path))["pid"] == os.getpid()
    for flawed in (live + b"x", live[:-1], live.replace(b'{"pid"', b'{"pid":1,"pid"'),
                   live.replace(b"0" * 30, b"0" * 29)):
        path.write_bytes(flawed)
        with lockrt.exclusive_lock(str(path), timeout=5) as acquired:
            assert acquired is True, flawed
        assert path.read_bytes() == flawed
