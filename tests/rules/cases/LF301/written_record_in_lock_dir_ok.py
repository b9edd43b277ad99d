"""The record inside a lock directory is named after its directory, not a
lock itself: removing it before the directory is one step of the release."""
import errno
import os
import socket


class DirLock:
    def __init__(self, path):
        self.lock_dir = path + ".lock"
        self.owner_file = os.path.join(self.lock_dir, socket.gethostname())

    def acquire(self):
        try:
            os.mkdir(self.lock_dir)
        except OSError as e:
            if e.errno != errno.EEXIST:
                raise
            return False
        open(self.owner_file, "wb").close()
        return True

    def release(self):
        if not os.path.exists(self.owner_file):
            raise RuntimeError("not mine")
        os.unlink(self.owner_file)
        os.rmdir(self.lock_dir)
