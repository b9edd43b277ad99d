"""The age only spares young locks a probe: an old lock is broken only once
its holder's pid is found dead, on every path to the removal. A paused
holder is alive, so no age takes its lock."""
import os
import time

MIN_AGE = 2.0


class PidLock:
    def __init__(self, path):
        self.path = path

    def acquire(self):
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        except FileExistsError:
            self._break_if_dead()
            return False
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return True

    def _break_if_dead(self):
        if time.time() - os.stat(self.path).st_mtime < MIN_AGE:
            return
        with open(self.path) as fh:
            pid = int(fh.read())
        if self._alive(pid):
            return
        os.unlink(self.path)

    @staticmethod
    def _alive(pid):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
