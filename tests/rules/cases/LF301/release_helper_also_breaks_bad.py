"""The lock's release() is also how acquire() breaks a lock whose owner it
judged dead. Two processes that both judge the same dead owner race: the
slower one deletes the lock the faster one has just taken. The faster one,
still running, later leaves through release() and deletes the slower one's
lock by name. One root bug, reported at release()'s removal, naming the break
(`self.release()` right after the judgement) that makes it one."""

import os


class RunLock:
    def __init__(self, path):
        self.path = path

    def _owner_dead(self):
        try:
            with open(self.path) as f:
                pid = int(f.read().strip())
        except (OSError, ValueError):
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False

    def acquire(self):
        if os.path.exists(self.path) and self._owner_dead():
            self.release()
        fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))

    def release(self):
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc):
        self.release()
        return False
