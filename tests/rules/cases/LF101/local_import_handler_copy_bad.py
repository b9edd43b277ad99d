"""A hook that imports fcntl inside the function: where the import fails
(Windows) the handler runs the same append with no lock."""
import json
import os


def record(path, event):
    lock_path = path + ".lock"
    try:
        import fcntl
        with open(lock_path, "a") as lf:
            fcntl.flock(lf, fcntl.LOCK_EX)
            with open(path, "a") as f:
                f.write(json.dumps(event) + "\n")
    except ImportError:
        with open(path, "a") as f:
            f.write(json.dumps(event) + "\n")


class Store:
    def __init__(self, path):
        self.path = path

    def bump(self, key):
        try:
            import fcntl
            with open(self.path + ".lock", "w") as lf:
                fcntl.flock(lf.fileno(), fcntl.LOCK_EX)
                data = self._load()
                data[key] = data.get(key, 0) + 1
                self._save(data)
        except ImportError:
            data = self._load()
            data[key] = data.get(key, 0) + 1
            self._save(data)

    def _load(self):
        with open(self.path) as f:
            return json.load(f)

    def _save(self, data):
        with open(self.path + ".tmp-%d" % os.getpid(), "w") as f:
            json.dump(data, f)
        os.replace(self.path + ".tmp-%d" % os.getpid(), self.path)
