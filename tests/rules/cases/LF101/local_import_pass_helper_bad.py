"""Lock helpers that import fcntl themselves and, where the import fails,
go on as if the lock were held."""
import contextlib
import json


class state_lock:
    def __init__(self, path):
        self.path = path
        self.fh = None

    def __enter__(self):
        self.fh = open(self.path, "w")
        try:
            import fcntl
            fcntl.flock(self.fh.fileno(), fcntl.LOCK_EX)
        except ImportError:
            pass
        return self

    def __exit__(self, *exc):
        self.fh.close()


@contextlib.contextmanager
def locked(path):
    with open(path, "w") as fh:
        try:
            import fcntl
            fcntl.flock(fh, fcntl.LOCK_EX)
        except ImportError:
            pass
        yield


def bump(path):
    with state_lock(path + ".lock"):
        with open(path) as f:
            data = json.load(f)
        data["n"] += 1
        with open(path, "w") as f:
            json.dump(data, f)


def put(path, k, v):
    with locked(path + ".lock"):
        with open(path) as f:
            data = json.load(f)
        data[k] = v
        with open(path, "w") as f:
            json.dump(data, f)
