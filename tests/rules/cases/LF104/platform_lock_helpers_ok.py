"""The lock helper is defined once per platform branch (msvcrt on Windows,
fcntl elsewhere): whichever is bound, save() holds the lock around its
read-modify-write."""
import json
import os
import sys
from pathlib import Path

if sys.platform == "win32":
    import msvcrt

    def _lock_acquire(fd):
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)

    def _lock_release(fd):
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _lock_acquire(fd):
        fcntl.flock(fd, fcntl.LOCK_EX)

    def _lock_release(fd):
        fcntl.flock(fd, fcntl.LOCK_UN)


class State:
    def __init__(self, path):
        self.path = Path(path)

    def _reload(self):
        return json.loads(self.path.read_text())

    def _write(self, data):
        self.path.write_text(json.dumps(data))

    def save(self, ns, value):
        with open(str(self.path) + ".lock", "ab") as lock_f:
            _lock_acquire(lock_f.fileno())
            try:
                merged = self._reload()
                merged[ns] = value
                self._write(merged)
            finally:
                _lock_release(lock_f.fileno())
