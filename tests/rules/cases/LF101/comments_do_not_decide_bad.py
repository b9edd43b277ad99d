"""Comments that read like the right shape must not change the verdict."""

import sys

if sys.platform != "win32":
    import fcntl
else:
    fcntl = None


def bump(path, read, write):
    # raise RuntimeError("no locking") -- a comment, not a raise
    if fcntl is not None:
        with open(path + ".lock", "w") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)  # raise? block? st_ino?
            n = read(path) + 1
            write(path, n)
            return n
    # raise
    n = read(path) + 1
    write(path, n)
    return n
