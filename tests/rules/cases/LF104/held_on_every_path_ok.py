"""Every call of the helper holds the lock on every path that reaches it: an
acquisition that fails raises out (the caller returns), and the release comes
after the call, in a finally."""
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
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:
        fd.close()
        return False
    try:
        _bump(path)
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        fd.close()
    return True
