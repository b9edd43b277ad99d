"""fcntl on POSIX, msvcrt on Windows: every path locks."""

import contextlib
import os

try:
    import fcntl
except ImportError:
    fcntl = None
try:
    import msvcrt
except ImportError:
    msvcrt = None


@contextlib.contextmanager
def locked(path):
    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        elif msvcrt is not None:
            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
        else:
            raise RuntimeError("no file locking on this platform")
        yield
    finally:
        os.close(fd)


def bump(path):
    with locked(path):
        with open(path) as fh:
            n = int(fh.read() or "0")
        with open(path, "w") as fh:
            fh.write(str(n + 1))
