"""_write_state() is private and every call of it holds the flock: no other
writer shares its `.tmp` name."""
import fcntl
import json
import os


def _write_state(path, data):
    tmp_path = path + ".tmp"
    with open(tmp_path, "w") as f:
        json.dump(data, f)
    os.replace(tmp_path, path)


def increment(path):
    with open(path + ".lock", "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        with open(path) as f:
            data = json.load(f)
        data["n"] = data.get("n", 0) + 1
        _write_state(path, data)
