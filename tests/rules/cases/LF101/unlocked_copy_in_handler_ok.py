"""The same decorator, creating the lock file when it is missing: every path
to the wrapped update holds the lock."""
import fcntl
import functools
import json


def serialized(func):
    @functools.wraps(func)
    def wrapper(path, *args):
        fd = open(path + ".lock", "a")
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                continue
        try:
            return func(path, *args)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            fd.close()

    return wrapper


@serialized
def add_pid(path, pid):
    try:
        with open(path) as f:
            pids = json.load(f)
    except (FileNotFoundError, ValueError):
        pids = []
    pids.append(pid)
    with open(path, "w") as f:
        json.dump(pids, f)
