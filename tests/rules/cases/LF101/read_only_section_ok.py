"""A best-effort lock around a read: nothing is written under it."""

import contextlib
import json

try:
    import fcntl
except ImportError:
    fcntl = None


@contextlib.contextmanager
def shared_view(path):
    if fcntl is None:
        yield
        return
    with open(path + ".lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def snapshot(path):
    with shared_view(path):
        with open(path) as fh:
            return json.load(fh)
