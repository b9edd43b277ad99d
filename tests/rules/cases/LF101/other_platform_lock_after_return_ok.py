"""`if not _WINDOWS: flock; return True`, then msvcrt.locking: the code
after the test is the other platform's lock, not a path without one; False
comes back only to a caller that asked not to wait."""
import json
import time

try:
    import fcntl
    _WINDOWS = False
except ImportError:
    import msvcrt
    fcntl = None
    _WINDOWS = True


def lock_exclusive(fh, blocking=True, timeout=30.0):
    if not _WINDOWS:
        flags = fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB)
        try:
            fcntl.flock(fh.fileno(), flags)
            return True
        except OSError:
            if blocking:
                raise
            return False
    deadline = time.time() + timeout
    while True:
        try:
            fh.seek(0)
            msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            if not blocking:
                return False
            if time.time() >= deadline:
                raise OSError("could not take the lock")
            time.sleep(0.05)


def append_event(path, event):
    with open(path + ".lock", "a+") as fh:
        lock_exclusive(fh)
        with open(path, "a") as out:
            out.write(json.dumps(event) + "\n")
