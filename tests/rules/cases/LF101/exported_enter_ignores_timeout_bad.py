"""A lock class for other modules' `with FileLock(path):` blocks. Its acquire
waits a while for the exclusive create, then gives up and returns False; its
__enter__ ignores that and hands out the lock anyway, so under contention
every caller's critical section runs unlocked."""
import os
import time


class FileLock:
    def __init__(self, path, timeout=5.0):
        self._lock_path = path + ".lock"
        self._timeout = timeout

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc):
        self.release()
        return False

    def acquire(self):
        deadline = time.time() + self._timeout
        while True:
            try:
                fd = os.open(self._lock_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
                os.close(fd)
                return True
            except FileExistsError:
                if time.time() >= deadline:
                    return False
            time.sleep(0.05)

    def release(self):
        os.unlink(self._lock_path)
