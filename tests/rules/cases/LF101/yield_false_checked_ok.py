"""A lock context manager that tells its callers whether it locked; they check."""

import contextlib
import json

try:
    import fcntl
except ImportError:
    fcntl = None


@contextlib.contextmanager
def maybe_locked(path):
    if fcntl is None:
        yield False
        return
    with open(path + ".lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield True


def put(path, key, value):
    with maybe_locked(path) as locked:
        if not locked:
            raise RuntimeError("refusing to update %s without a lock" % path)
        with open(path) as fh:
            data = json.load(fh)
        data[key] = value
        with open(path, "w") as fh:
            json.dump(data, fh)
