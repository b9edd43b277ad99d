"""Read-modify-writes under a lock other processes take too, however the lock
is spelled. (A threading lock keeps out only this process's threads:
in_process_lock_rmw_bad.py.)"""
import fcntl
import json
from contextlib import contextmanager

import fasteners
from filelock import FileLock
from oslo_concurrency import lockutils

_GUARD = fasteners.InterProcessLock("/var/lock/counts.lock")


@contextmanager
def held(path):
    with open(str(path) + ".lck", "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        yield


def with_filelock(path, key):
    with FileLock(str(path) + ".lock"):
        data = json.loads(path.read_text())
        data[key] = data.get(key, 0) + 1
        path.write_text(json.dumps(data))


def with_local_helper(path, key):
    with held(path):
        data = json.loads(path.read_text())
        data[key] = data.get(key, 0) + 1
        path.write_text(json.dumps(data))


def with_module_guard(path, key):
    with _GUARD:
        data = json.loads(path.read_text())
        data[key] = data.get(key, 0) + 1
        path.write_text(json.dumps(data))


@lockutils.synchronized("counts", external=True)
def with_decorator(path, key):
    data = json.loads(path.read_text())
    data[key] = data.get(key, 0) + 1
    path.write_text(json.dumps(data))


class Store:
    def __init__(self, path):
        self.path = path
        self._mutex = FileLock(str(path) + ".lock")

    def add(self, key):
        with self._mutex:
            data = json.loads(self.path.read_text())
            data[key] = data.get(key, 0) + 1
            self.path.write_text(json.dumps(data))


class Roster:
    """The read-modify-write itself takes no lock; every caller holds one."""

    def __init__(self, path, lock):
        self.path = path
        self._lock = lock

    def _change(self, member):
        doc = json.loads(self.path.read_text())
        doc.setdefault("members", []).append(member)
        self.path.write_text(json.dumps(doc))

    def join(self, member):
        with self._lock:
            self._change(member)

    def join_held(self, member):
        self._lock.acquire()
        try:
            self._change(member)
        finally:
            self._lock.release()

    def leave_exclusive(self, member):
        # the lock was taken by an earlier call; it is released here
        self._change(member)
        self._lock.release()
