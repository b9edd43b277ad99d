"""A lock helper that quietly does nothing where fcntl is missing."""

import os

try:
    import fcntl
except ImportError:
    fcntl = None


def _take(handle):
    """Lock handle; False when this platform cannot."""
    if fcntl is None:
        return False
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
    return True


def record_visit(counter_path):
    with open(counter_path + ".lock", "a") as handle:
        _take(handle)
        try:
            with open(counter_path) as fh:
                visits = int(fh.read() or "0")
        except FileNotFoundError:
            visits = 0
        with open(counter_path, "w") as fh:
            fh.write(str(visits + 1))
    return visits + 1


def describe():
    return os.name
