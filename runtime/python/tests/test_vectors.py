"""The shared vectors (runtime/tests/vectors/records.json) against the Python
binding: native (the C library through ctypes), native-c, and the pure-Python
fallback, whose parser, judgement and liveness are its own and must agree with
the C library's on every vector."""
import json
import os
import subprocess
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "..", "..", "tests", "vectors", "records.json")
with open(VECTORS, "rb") as _fh:
    DOC = json.loads(_fh.read().decode("ascii"))


def raw(text):
    """The vectors' strings: one character per byte."""
    return text.encode("latin-1")


def read_proc_stat(pid):
    with open("/proc/%d/stat" % pid, "rb") as fh:
        data = fh.read()
    fields = data[data.rindex(b")") + 2:].split()
    return fields[0], int(fields[19])


@pytest.fixture(scope="module")
def symbols():
    child = subprocess.Popen(["true"])
    child.wait()
    zombie = os.fork()
    if zombie == 0:
        os._exit(0)
    deadline = time.monotonic() + 30
    while read_proc_stat(zombie)[0] != b"Z":
        assert time.monotonic() < deadline, "the child never became a zombie"
        time.sleep(0.001)
    yield {"dead": child.pid, "zombie": zombie, "self": os.getpid(),
           "self_start": read_proc_stat(os.getpid())[1]}
    os.waitpid(zombie, 0)


def pid_of(sym, value):
    return sym[value] if value in ("self", "dead", "zombie") else int(value)


def start_of(sym, value):
    if value == "self":
        return sym["self_start"]
    if value == "self+1":
        return sym["self_start"] + 1
    return int(value)


def host_of(value):
    me = os.fsencode(os.uname().nodename)
    return {"self": me, "self.": me + b".", "other": b"elsewhere.invalid"}.get(value, raw(value))


def oslock_free(lockrt, path):
    """Does an OS-lock acquirer get the lock at once (the file holds nothing)?"""
    with lockrt.exclusive_lock(path, timeout=0, strategy="oslock") as acquired:
        return acquired


@pytest.mark.parametrize("vector", DOC["records"], ids=[v["name"] for v in DOC["records"]])
def test_record(lockrt, tmp_path, vector):
    path = str(tmp_path / "r.lock")
    data = raw(vector["bytes"])
    with open(path, "wb") as fh:
        fh.write(data)
    if vector["expect"] == "record":
        assert lockrt.owner_read(path) == {
            "pid": int(vector["pid"]), "start_time": int(vector["start_time"]),
            "host": raw(vector["host"]).decode("utf-8"), "token": vector["token"]}
        other_host = raw(vector["host"]) != os.fsencode(os.uname().nodename)
        if other_host:
            assert oslock_free(lockrt, path) is False  # another host's record holds
            if lockrt.BACKEND == "native":
                assert lockrt.reclaim_if_stale(path) is False
    else:
        assert vector["expect"] == "rejected" and vector["reason"]
        with pytest.raises(lockrt.LockrtError) as info:
            lockrt.owner_read(path)
        assert info.value.status == lockrt.ECORRUPT
        assert oslock_free(lockrt, path) is True  # not a record: holds nothing
        if lockrt.BACKEND == "native":
            with pytest.raises(lockrt.LockrtError) as info:
                lockrt.reclaim_if_stale(path)
            assert info.value.status == lockrt.ECORRUPT
    with open(path, "rb") as fh:
        assert fh.read() == data


def judgement_bytes(sym, vector):
    record = b'{"pid":%d,"start_time":%d,"host":"%s","token":"%s"}' % (
        pid_of(sym, vector["pid"]), start_of(sym, vector["start_time"]), host_of(vector["host"]),
        DOC["token"].encode())
    if not vector.get("drop_newline"):
        record += b"\n"
    return record + raw(vector.get("append", ""))


@pytest.mark.parametrize("vector", DOC["judgements"], ids=[v["name"] for v in DOC["judgements"]])
def test_judgement(lockrt, tmp_path, symbols, vector):
    path = str(tmp_path / "j.lock")
    data = judgement_bytes(symbols, vector)
    verdict = vector["verdict"]
    assert verdict in ("stale", "held", "not_record")
    with open(path, "wb") as fh:
        fh.write(data)
    if lockrt.BACKEND == "python":
        assert lockrt._judge_record(data) == verdict  # the pure-Python judgement itself
    assert oslock_free(lockrt, path) is (verdict != "held")
    with open(path, "rb") as fh:
        assert fh.read() == data  # the OS lock never changes the file
    if lockrt.BACKEND != "native":
        return
    if verdict == "not_record":
        with pytest.raises(lockrt.LockrtError) as info:
            lockrt.reclaim_if_stale(path)
        assert info.value.status == lockrt.ECORRUPT
    else:
        assert lockrt.reclaim_if_stale(path) is (verdict == "stale")
    assert os.path.exists(path) is (verdict != "stale")
    with open(path, "wb") as fh:
        fh.write(data)
    lock = lockrt.acquire(path, timeout=0, strategy="lockfile")
    assert (lock is not None) is (verdict == "stale")
    if lock is not None:
        lock.release()
        assert not os.path.exists(path)
    else:
        with open(path, "rb") as fh:
            assert fh.read() == data


@pytest.mark.parametrize("vector", DOC["liveness"], ids=[v["name"] for v in DOC["liveness"]])
def test_liveness(lockrt, symbols, vector):
    got = lockrt.process_alive(pid_of(symbols, vector["pid"]), start_of(symbols, vector["start_time"]))
    assert got == vector["expect"]
