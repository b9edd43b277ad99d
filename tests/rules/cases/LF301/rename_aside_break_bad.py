"""A stale lock broken by renaming it aside to a name of its own and
unlinking that: the rename moves whatever the lock name holds at that
moment, so a breaker that judged the old holder dead moves a successor's
fresh lock away instead. A rename to a name unlinked right after is the
same."""
import os
import socket


class SoftLock:
    def __init__(self, path):
        self.path = path

    def acquire(self):
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        except FileExistsError:
            self._break_if_dead()
            return False
        os.write(fd, ("%d\n%s\n" % (os.getpid(), socket.gethostname())).encode())
        os.close(fd)
        return True

    def _break_if_dead(self):
        with open(self.path) as fh:
            pid = int(fh.read().split()[0])
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            aside = "%s.break.%d" % (self.path, os.getpid())
            os.rename(self.path, aside)
            os.unlink(aside)

    def _break_other(self, scratch):
        with open(self.path) as fh:
            pid = int(fh.read().split()[0])
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            os.replace(self.path, scratch)
            os.unlink(scratch)
