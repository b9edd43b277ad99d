"""A lock context manager that turns into a no-op without fcntl."""

import contextlib
import sys

if sys.platform == "win32":
    fcntl = None
else:
    import fcntl


@contextlib.contextmanager
def held(lock_path):
    if fcntl is None:
        yield
        return
    with open(lock_path, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def push(queue_path, item, load, save):
    with held(queue_path + ".lock"):
        items = load(queue_path)
        items.append(item)
        save(queue_path, items)
