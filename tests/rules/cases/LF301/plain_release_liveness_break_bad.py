"""A pid lock whose acquire breaks a dead owner's lock by name (line 27), and
whose exit releases it by name with no look at the record (line 40). Two
starters that both judged the same owner dead race: the slower deletes the
lock the faster has just created and creates its own; the faster one still
runs, and its exit deletes the slower one's live lock. The break and the
plain release are both findings; the release is reported once, in the helper
the exit calls."""
import errno
import os


class PidLock:
    def __init__(self, path):
        self.path = path

    def __enter__(self):
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            with open(self.path) as f:
                owner = int(f.read() or 0)
            try:
                os.kill(owner, 0)
                raise RuntimeError("already running")
            except ProcessLookupError:
                pass
            os.remove(self.path)
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return self

    def __exit__(self, kind, value, tb):
        if kind is RuntimeError:
            return False
        self._drop()
        return False

    def _drop(self):
        os.remove(self.path)
