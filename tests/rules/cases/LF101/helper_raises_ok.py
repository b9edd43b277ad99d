"""A lock helper that refuses to run without a lock."""

import contextlib
import json

try:
    import fcntl
except ImportError:
    fcntl = None


@contextlib.contextmanager
def exclusive(path):
    if fcntl is None:
        raise RuntimeError("file locking is not available here")
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
