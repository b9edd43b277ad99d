"""The helper's read-modify-write runs unlocked when one caller releases the
lock before calling it: a lock taken and released earlier in the caller does
not cover the call (the control-flow graph says it is not held there)."""
import fcntl
import json


def _bump(path):
    with open(path) as f:
        data = json.load(f)
    data["n"] += 1
    with open(path, "w") as f:
        json.dump(data, f)


def update(path):
    fd = open(path + ".lock", "w")
    fcntl.flock(fd, fcntl.LOCK_EX)
    fcntl.flock(fd, fcntl.LOCK_UN)
    fd.close()
    _bump(path)


def update_locked(path):
    fd = open(path + ".lock", "w")
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        _bump(path)
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


def bump_after_unlock(path):
    fd = open(path + ".lock", "w")
    fcntl.flock(fd, fcntl.LOCK_EX)
    fcntl.flock(fd, fcntl.LOCK_UN)
    fd.close()
    with open(path) as f:
        data = json.load(f)
    data["n"] += 1
    with open(path, "w") as f:
        json.dump(data, f)
