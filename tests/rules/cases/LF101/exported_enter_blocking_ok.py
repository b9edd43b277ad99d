"""The same shape, but acquire gives up only when its caller asks not to
block, and __enter__ never asks: a `with` block always holds the lock."""
import fcntl
import os


class PidLock:
    def __init__(self, path):
        self.path = path
        self.fd = None

    def __enter__(self):
        self.lock()
        return self

    def __exit__(self, *exc):
        os.close(self.fd)
        return False

    def lock(self, block=True):
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not block:
                os.close(fd)
                return False
            fcntl.flock(fd, fcntl.LOCK_EX)
        self.fd = fd
        return True
