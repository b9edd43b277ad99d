"""A failed lock is recorded, and the update is skipped when it failed."""

import fcntl
import json


def put(path, key, value):
    with open(path + ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            locked = True
        except OSError:
            locked = False
        if not locked:
            return False
        with open(path) as fh:
            data = json.load(fh)
        data[key] = value
        with open(path, "w") as fh:
            json.dump(data, fh)
        return True
