"""Without fcntl, the filelock package takes the lock instead."""

import contextlib
import json

from filelock import FileLock

try:
    import fcntl
except ImportError:
    fcntl = None


@contextlib.contextmanager
def exclusive(path):
    if fcntl is None:
        with FileLock(path + ".lock"):
            yield
        return
    with open(path + ".lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def put(path, key, value):
    with exclusive(path):
        with open(path) as fh:
            data = json.load(fh)
        data[key] = value
        with open(path, "w") as fh:
            json.dump(data, fh)
