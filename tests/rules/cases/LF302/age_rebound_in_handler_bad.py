import os
import time
from contextlib import contextmanager


@contextmanager
def file_lock(lock_path, stale_after=30.0):
    fd = None
    while fd is None:
        try:
            fd = os.open(lock_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                age = time.time() - os.stat(lock_path).st_mtime
            except FileNotFoundError:
                age = 0.0  # released between the failed open and the stat
            if age >= stale_after:
                os.unlink(lock_path)
            time.sleep(0.05)
    try:
        yield
    finally:
        os.close(fd)
