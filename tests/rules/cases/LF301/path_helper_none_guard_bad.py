"""The lock path comes from a helper whose guard returns None first: the
message names the path it returns (os.path.join(...)), never None. The
sweep judges each lock's age and removes it by name (line 35)."""
import os
import time

STALE = 60.0


def _lock_dir():
    d = os.environ.get("TOOL_LOCK_DIR")
    return d if d and os.path.isdir(d) else None


def _lock_path(name):
    lock_dir = _lock_dir()
    if lock_dir is None:
        return None
    return os.path.join(lock_dir, name + ".lock")


def take(name):
    path = _lock_path(name)
    if path is None:
        return False
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        try:
            age = time.time() - os.path.getmtime(path)
        except OSError:
            return False
        if age < STALE:
            return False
        os.remove(path)
        return take(name)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    return True
