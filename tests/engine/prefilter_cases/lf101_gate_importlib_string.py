"""LF101 gate: the lock module is named only in a string, the one
importlib.import_module loads; the code calls it through another name
(`_locking`), and no mkdir or O_EXCL is anywhere. The gate must let the file
through on the string."""
import importlib
import json

try:
    _locking = importlib.import_module("fcntl")
except ImportError:  # Windows
    _locking = None


def bump(path):
    if _locking is not None:
        with open(path + ".lock", "w") as lk:
            _locking.flock(lk.fileno(), _locking.LOCK_EX)
            try:
                with open(path) as fh:
                    data = json.load(fh)
                data["n"] = data.get("n", 0) + 1
                with open(path, "w") as fh:
                    json.dump(data, fh)
            finally:
                _locking.flock(lk.fileno(), _locking.LOCK_UN)
        return
    with open(path) as fh:
        data = json.load(fh)
    data["n"] = data.get("n", 0) + 1
    with open(path, "w") as fh:
        json.dump(data, fh)
