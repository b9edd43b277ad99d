"""`if fcntl is None and msvcrt is None: yield`: one of them is on every platform
CPython runs on, so the unlocked yield never runs."""
import contextlib
try:
    import fcntl
except ImportError:
    fcntl = None
try:
    import msvcrt
except ImportError:
    msvcrt = None


@contextlib.contextmanager
def store_lock(path):
    if fcntl is None and msvcrt is None:
        yield
        return
    with open(path + ".lock", "a+") as fh:
        if fcntl is not None:
            fcntl.flock(fh, fcntl.LOCK_EX)
        else:
            msvcrt.locking(fh.fileno(), msvcrt.LK_LOCK, 1)
        yield


def bump(path):
    with store_lock(path):
        with open(path) as f:
            n = int(f.read() or 0)
        with open(path, "w") as f:
            f.write(str(n + 1))
