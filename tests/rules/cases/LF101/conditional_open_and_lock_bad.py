"""Project registry updated by concurrent CLI runs."""

import json
import os

try:
    import fcntl
    _CAN_LOCK = True
except ImportError:
    _CAN_LOCK = False


def touch_project(registry, name, root):
    lock_fh = None
    try:
        if _CAN_LOCK:
            lock_fh = open(registry + ".lock", "w")
            fcntl.flock(lock_fh, fcntl.LOCK_EX)
        try:
            with open(registry) as fh:
                data = json.load(fh)
        except FileNotFoundError:
            data = {}
        data[name] = root
        tmp = "%s.%d.tmp" % (registry, os.getpid())
        with open(tmp, "w") as fh:
            json.dump(data, fh)
        os.replace(tmp, registry)
    finally:
        if lock_fh is not None:
            fcntl.flock(lock_fh, fcntl.LOCK_UN)
            lock_fh.close()
