"""The same lock class, refusing to run without fcntl: the ImportError
handler raises, so no caller goes on unlocked."""
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
        except ImportError as exc:
            self.fh.close()
            raise RuntimeError("file locking needs fcntl") from exc
        fcntl.flock(self.fh.fileno(), fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        self.fh.close()


def bump(path):
    with state_lock(path + ".lock"):
        with open(path) as f:
            data = json.load(f)
        data["n"] += 1
        with open(path + ".tmp-%d" % os.getpid(), "w") as f:
            json.dump(data, f)
        os.replace(path + ".tmp-%d" % os.getpid(), path)
