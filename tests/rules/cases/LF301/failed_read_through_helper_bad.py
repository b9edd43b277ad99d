"""A pidfile lock read through the module's own helper: read_pid() raises on
a partial record, and the handler removes the lock. A starter that has
created the file but not yet written its pid is judged broken and loses its
lock (line 33): a bug of its own, reported at the call. The break after the
probe (line 38) is reported at its call too, since the helper's removal is
no finding of its own (the lock is broken only after judging its owner dead)."""
import os


class Pidfile:
    def __init__(self, path):
        self.path = path

    def acquire(self):
        fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)

    def read_pid(self):
        with open(self.path) as fh:
            line = fh.readline()
            if not line.endswith("\n"):
                raise ValueError("partial pidfile")
            return int(line)

    def remove(self):
        os.unlink(self.path)

    def remove_if_stale(self):
        try:
            pid = self.read_pid()
        except ValueError:
            self.remove()
            return True
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            self.remove()
            return True
        return False
