"""A lock class that imports fcntl itself, on entry: where the import fails
(Windows) its handler returns as if the lock were held, and every caller's
read-modify-write runs unlocked."""
import json
import os


class state_lock:
    def __init__(self, path):
        self.path = path
        self.fh = None

    def __enter__(self):
        self.fh = open(self.path, "w")
        try:
            import fcntl
        except ImportError:
            return self  # no locking where fcntl is missing
        fcntl.flock(self.fh.fileno(), fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        self.fh.close()


def bump(path):
    with state_lock(path + ".lock"):
        with open(path) as f:
            data = json.load(f)
        data["n"] += 1
        with open(path + ".new", "w") as f:
            json.dump(data, f)
        os.replace(path + ".new", path)
