"""A directory lock made with os.makedirs (no exist_ok: it fails when the
directory exists, as os.mkdir does). A lock older than the limit, judged
through the class's own age helper, is taken over in place: touched with
os.utime and treated as held. The old holder, merely paused, then releases
by name (line 36) the lock its successor now holds. The age judgement itself
is LF302 (line 28)."""
import errno
import os
import shutil
import time


class DirLock:
    def __init__(self, path, max_age=10.0):
        self.path = path
        self.max_age = max_age
        self.held = False

    def get_age(self):
        return time.time() - os.path.getmtime(self.path)

    def acquire(self):
        try:
            os.makedirs(self.path)
        except OSError as err:
            if err.errno != errno.EEXIST:
                raise
            if self.get_age() <= self.max_age:
                return False
            os.utime(self.path, (0, time.time()))
        self.held = True
        return True

    def release(self):
        if self.held:
            shutil.rmtree(self.path)
            self.held = False
