"""A comment that spells the locked work must not make a copy of it."""

import sys

if sys.platform != "win32":
    import fcntl
else:
    fcntl = None


def bump(path, read, write):
    if fcntl is not None:
        with open(path + ".lock", "w") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            n = read(path) + 1
            write(path, n)
            return n
    # n = read(path) + 1
    # write(path, n)
    raise RuntimeError("file locking is unavailable here")
