"""Retry loops that give up and run the update anyway."""
import fcntl
import json
import os
import time


def bump(path):
    with open(path + ".lock", "w") as lf:
        deadline = time.time() + 5
        while True:
            try:
                fcntl.flock(lf, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.time() > deadline:
                    break
                time.sleep(0.05)
        with open(path) as f:
            data = json.load(f)
        data["n"] += 1
        with open(path, "w") as f:
            json.dump(data, f)


def put(path, k, v):
    lock = path + ".d"
    i = 0
    while True:
        try:
            os.mkdir(lock)
            break
        except FileExistsError:
            i += 1
            if i >= 50:
                break
            time.sleep(0.1)
    try:
        with open(path) as f:
            data = json.load(f)
        data[k] = v
        with open(path, "w") as f:
            json.dump(data, f)
    finally:
        try:
            os.rmdir(lock)
        except OSError:
            pass
