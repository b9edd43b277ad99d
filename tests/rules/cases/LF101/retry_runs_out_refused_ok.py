"""Retry loops that refuse when the wait ends: a for/else that raises, an
exit, and a helper that returns whether it got the lock."""
import fcntl
import json
import os
import sys
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
        else:
            self.fh.close()
            raise TimeoutError(self.path)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fh, fcntl.LOCK_UN)
        self.fh.close()


def acquire(lock):
    for _ in range(50):
        try:
            os.mkdir(lock)
            return True
        except FileExistsError:
            time.sleep(0.1)
    return False


def main(path):
    lock = path + ".d"
    while True:
        try:
            os.mkdir(lock)
            break
        except FileExistsError:
            sys.exit("another run holds " + lock)
    try:
        with open(path) as f:
            data = json.load(f)
        data["n"] += 1
        with open(path, "w") as f:
            json.dump(data, f)
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
    lock = path + ".d"
    if not acquire(lock):
        return
    try:
        with open(path) as f:
            data = json.load(f)
        data[k] = v
        with open(path, "w") as f:
            json.dump(data, f)
    finally:
        os.rmdir(lock)
