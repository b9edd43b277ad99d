"""A lock helper for both platforms that does nothing on a third: CPython has
fcntl on every POSIX system and msvcrt on Windows, so the else never runs."""

import os

try:
    import fcntl
except ImportError:
    fcntl = None
try:
    import msvcrt
except ImportError:
    msvcrt = None


def _lock(fh):
    if fcntl is not None:
        fcntl.flock(fh, fcntl.LOCK_EX)
    elif msvcrt is not None:
        msvcrt.locking(fh.fileno(), msvcrt.LK_LOCK, 1)
    else:
        pass  # neither module: carry on


def claim(owner_path):
    with open(owner_path + ".lock", "a") as fh:
        _lock(fh)
        with open(owner_path, "w") as out:
            out.write(str(os.getpid()))
