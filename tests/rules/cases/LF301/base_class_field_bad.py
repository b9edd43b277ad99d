"""A flocked lock file whose name a base class's __init__ keeps: the subclass's
release unlinks it by name (portalocker's TemporaryFileLock shape). The handle
is opened by one helper and locked by another that takes it as a parameter."""

import fcntl
import os


class FileLock:
    def __init__(self, filename, mode="a"):
        self.fh = None
        self.filename = str(filename)
        self.mode = mode

    def acquire(self):
        fh = self._get_fh()
        fh = self._get_lock(fh)
        self.fh = fh
        return fh

    def release(self):
        if self.fh:
            fcntl.flock(self.fh.fileno(), fcntl.LOCK_UN)
            self.fh.close()
            self.fh = None

    def _get_fh(self):
        return open(self.filename, self.mode)

    def _get_lock(self, fh):
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return fh


class TemporaryFileLock(FileLock):
    def __init__(self, filename=".lock"):
        FileLock.__init__(self, filename=filename, mode="w")

    def release(self):
        FileLock.release(self)
        # A waiter blocked on the old inode wins it while a newcomer creates a
        # new file by this name: two holders.
        if os.path.isfile(self.filename):
            os.unlink(self.filename)


class Settings:
    """Not a lock: a field of the same name in an unrelated class."""

    def __init__(self, filename):
        self.filename = filename

    def reset(self):
        if os.path.isfile(self.filename):
            os.unlink(self.filename)
