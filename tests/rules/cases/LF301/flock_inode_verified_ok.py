"""An flock lock whose acquisition checks, once locked, that the path still
names the locked inode, and starts again when not. Its release removes the
file while still holding the lock: a waiter that then gets the old, unlinked
inode sees the mismatch and retries, so no two holders run at once."""
import fcntl
import os


class PidLock:
    def __init__(self, path):
        self.path = path
        self.fd = None

    def _still_ours(self, fd):
        try:
            return os.stat(self.path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            return False

    def lock(self):
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(fd, fcntl.LOCK_EX)
            if self._still_ours(fd):
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self.fd = fd

    def unlock(self):
        os.unlink(self.path)
        os.close(self.fd)
        self.fd = None
