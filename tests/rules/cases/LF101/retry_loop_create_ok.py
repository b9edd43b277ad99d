"""An exclusive-create lock retried in a loop: an existing lock file is
waited out (the EEXIST handler falls through to the next turn), the loop
leaves only once the create succeeded or the timeout raises. Nothing runs
unlocked."""
import errno
import time


class DirLock:
    def __init__(self, lock_file, timeout=None):
        self._lock_file = lock_file
        self._locked = None
        self._timeout = timeout

    def _lock(self):
        start = time.time()
        while True:
            if not self._locked:
                try:
                    lock = open(self._lock_file, "x")
                except OSError as err:
                    if err.errno == errno.EEXIST:
                        pass
                    else:
                        raise
                else:
                    self._locked = lock
            if self._locked:
                break
            time.sleep(0.1)
            if self._timeout and time.time() - start > self._timeout:
                raise TimeoutError(self._lock_file)
        return self

    def __enter__(self):
        self._lock()
        return self

    def __exit__(self, *exc):
        self._locked.close()
        self._locked = None


def bump(lock_file, counter):
    with DirLock(lock_file):
        with open(counter) as f:
            n = int(f.read())
        with open(counter, "w") as f:
            f.write(str(n + 1))
