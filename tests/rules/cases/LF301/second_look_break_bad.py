"""Two stale breaks in one function, each after a look of its own.

The lock records its holder's pid. When the record parses, the lock is broken
once its holder is gone and its mtime is old; when it does not parse, the
function looks at its age anew and breaks it then. The two removals are two
judgements (the second also deletes a lock caught between its create and the
write of its pid), not two branches of one: both are reported.
"""
import os
import time

STALE_SECONDS = 600


def _holder(path):
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def take(path):
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        pid = _holder(path)
        if pid is not None:
            age = time.time() - os.stat(path).st_mtime
            if age < STALE_SECONDS:
                return False
            os.unlink(path)
        else:
            age = time.time() - os.stat(path).st_mtime
            if age < STALE_SECONDS:
                return False
            os.unlink(path)
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    return True
