"""One __enter__, two root bugs: without fcntl (Windows) it returns as if
locked, and where fcntl exists its retry loop breaks out at the deadline and
returns as if locked too. Fixing either leaves the other, so each is
reported."""
import time


class FileLock:
    def __init__(self, path, timeout_s=2.0):
        self.path = path
        self.timeout_s = timeout_s
        self._fh = None
        self._fcntl = None

    def __enter__(self):
        self._fh = open(self.path, "a+")
        try:
            import fcntl

            self._fcntl = fcntl
            deadline = time.time() + self.timeout_s
            while True:
                try:
                    fcntl.flock(self._fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.time() > deadline:
                        break
                    time.sleep(0.05)
        except ImportError:
            pass
        return self

    def __exit__(self, *exc):
        if self._fcntl is not None:
            self._fcntl.flock(self._fh.fileno(), self._fcntl.LOCK_UN)
        self._fh.close()
