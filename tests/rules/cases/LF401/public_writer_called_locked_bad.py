"""write_state() is called under the module's flock here, but it is public:
the hook scripts that import this module call it too, without the lock, and
then share one `.tmp` name with the locked writers."""
import fcntl
import json
import os


def write_state(path, data):
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
        write_state(path, data)
