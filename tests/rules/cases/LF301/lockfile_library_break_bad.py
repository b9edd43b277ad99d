"""A `lockfile` library lock (vendored here), broken by name after an age
judgement of its file: LF302 at the age (line 16), LF301 at the removal."""
import os
import stat
import time

from .vendor.lockfile import LockFile


def locked(path, max_age=60):
    lock = LockFile(path)
    while not lock.i_am_locking():
        if lock.is_locked():
            try:
                age = time.time() - os.stat(lock.lock_file)[stat.ST_MTIME]
                if age > max_age:
                    lock.break_lock()
            except OSError:
                pass
        lock.acquire(timeout=5.0)
    return lock
