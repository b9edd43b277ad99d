"""Callers that check whether the helper took the lock."""

import json

try:
    import fcntl
    LOCKS = True
except ImportError:
    LOCKS = False


def _lock(fh):
    if not LOCKS:
        return False
    fcntl.flock(fh, fcntl.LOCK_EX)
    return True


def put(path, key, value):
    with open(path, "r+") as fh:
        if not _lock(fh):
            raise RuntimeError("cannot lock " + path)
        data = json.loads(fh.read() or "{}")
        data[key] = value
        fh.seek(0)
        fh.truncate()
        fh.write(json.dumps(data))
