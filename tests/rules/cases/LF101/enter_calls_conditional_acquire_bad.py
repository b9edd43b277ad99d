"""A lock class whose __enter__ calls its own acquire(), which takes flock
only where fcntl imported: elsewhere every `with FileLock(...)` body runs
unlocked."""
import os
try:
    import fcntl
except ImportError:
    fcntl = None


class FileLock(object):
    def __init__(self, filename):
        self.filename = filename
        self.fd = None

    def acquire(self):
        self.fd = os.open(self.filename, os.O_CREAT | os.O_RDWR)
        if fcntl is not None:
            fcntl.flock(self.fd, fcntl.LOCK_EX)

    def release(self):
        if self.fd is not None:
            fd, self.fd = self.fd, None
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.release()


def bump(lock_path, state_path):
    with FileLock(lock_path):
        n = int(open(state_path).read())
        open(state_path, 'w').write(str(n + 1))
