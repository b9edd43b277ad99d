"""acquire() returns True once locked and None when flock fails; one caller
ignores that result and writes anyway, the other acquire returns None on both
paths, so a swallowed failure looks like success to every caller."""
import fcntl
import logging


class FileLock:
    def __init__(self, path):
        self.handle = open(path, "w")

    def acquire(self):
        try:
            fcntl.flock(self.handle, fcntl.LOCK_EX)
            return True
        except OSError as ex:
            logging.error("acquire failed: %s", ex)
            return None

    def release(self):
        fcntl.flock(self.handle, fcntl.LOCK_UN)


class QuietLock:
    def __init__(self, path):
        self.handle = open(path, "w")

    def acquire(self):
        try:
            fcntl.flock(self.handle, fcntl.LOCK_EX)
        except OSError as ex:
            logging.error("acquire failed: %s", ex)
            return None

    def release(self):
        fcntl.flock(self.handle, fcntl.LOCK_UN)


def append_entry(log_path, line):
    lock = FileLock(log_path + ".lock")
    lock.acquire()
    with open(log_path, "a") as f:
        f.write(line)
    lock.release()
