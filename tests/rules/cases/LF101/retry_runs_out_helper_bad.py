"""Lock helpers whose retry loop runs out and hands back no lock."""
import contextlib
import fcntl
import json
import os
import time


class FileLock:
    def __init__(self, path):
        self.path = path
        self.fh = None

    def __enter__(self):
        self.fh = open(self.path, "w")
        for _ in range(100):
            try:
                fcntl.flock(self.fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fh, fcntl.LOCK_UN)
        self.fh.close()


@contextlib.contextmanager
def dir_lock(path):
    lock = path + ".d"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.mkdir(lock)
            break
        except FileExistsError:
            time.sleep(0.1)
    try:
        yield
    finally:
        os.rmdir(lock)


def bump(path):
    with FileLock(path + ".lock"):
        with open(path) as f:
            data = json.load(f)
        data["n"] += 1
        with open(path, "w") as f:
            json.dump(data, f)


def put(path, k, v):
    with dir_lock(path):
        with open(path) as f:
            data = json.load(f)
        data[k] = v
        with open(path, "w") as f:
            json.dump(data, f)
