"""A lock record that stores a `start_time` (the wall-clock time the lock was
taken) but never compares it with the owner's process start time: a live
pid is trusted as is, so a dead owner whose pid was reused keeps the lock."""
import json
import os
import time

LOCK = "/var/lock/tool.lock"


def write_lock():
    with open(LOCK, "x") as fh:
        json.dump({"pid": os.getpid(), "start_time": time.time()}, fh)


def read_lock():
    with open(LOCK) as fh:
        return json.load(fh)


def holder_alive():
    rec = read_lock()
    try:
        os.kill(rec["pid"], 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
