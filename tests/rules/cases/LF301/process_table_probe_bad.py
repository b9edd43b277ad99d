"""A pid lock judged by psutil's process table: a recorded pid missing from
the set of running pids (built by a comprehension whose iterable runs in the
function) is taken as dead, and the lock is removed by name."""
import os

import psutil


class PidLock:
    def __init__(self, path):
        self.path = path

    def acquire(self):
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            with open(self.path) as f:
                pid = int(f.read().strip() or 0)
            if pid in {p.pid for p in psutil.process_iter()}:
                raise RuntimeError("locked by %d" % pid)
            os.unlink(self.path)
            return self.acquire()
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))
        return True
