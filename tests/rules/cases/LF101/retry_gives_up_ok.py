"""Retry loops whose give-up path raises, returns, or sets a flag tested before the work."""
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
                    raise TimeoutError(path)
                time.sleep(0.05)
        with open(path) as f:
            data = json.load(f)
        data["n"] += 1
        with open(path, "w") as f:
            json.dump(data, f)


def put(path, k, v):
    lock = path + ".d"
    got = False
    for _ in range(50):
        try:
            os.mkdir(lock)
            got = True
            break
        except FileExistsError:
            time.sleep(0.1)
    if not got:
        return
    try:
        with open(path) as f:
            data = json.load(f)
        data[k] = v
        with open(path, "w") as f:
            json.dump(data, f)
    finally:
        os.rmdir(lock)


def put2(path, k, v):
    with open(path + ".lock", "w") as lf:
        deadline = time.time() + 5
        while True:
            try:
                fcntl.flock(lf, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.time() > deadline:
                    return False
                time.sleep(0.05)
        with open(path) as f:
            data = json.load(f)
        data[k] = v
        with open(path, "w") as f:
            json.dump(data, f)
        return True


import contextlib


@contextlib.contextmanager
def try_lock(path, timeout=5.0):
    """Yields whether the wait ended with the lock: its callers test it."""
    start = time.time()
    with open(path + ".lock", "w") as lf:
        acquired = False
        while True:
            try:
                fcntl.flock(lf, fcntl.LOCK_EX | fcntl.LOCK_NB)
                acquired = True
                break
            except OSError:
                if time.time() - start >= timeout:
                    break
                time.sleep(0.1)
        yield acquired


def note(path, k, v):
    with try_lock(path) as ok:
        if not ok:
            return
        with open(path) as f:
            data = json.load(f)
        data[k] = v
        with open(path, "w") as f:
            json.dump(data, f)


def drain(path, queue, empty_error):
    """The break leaves when the queue is empty, with the lock held: not a
    give-up on the lock (the handler is not about taking it)."""
    with open(path + ".lock", "w") as lf:
        while True:
            try:
                fcntl.flock(lf, fcntl.LOCK_EX)
                item = queue.get_nowait()
            except empty_error:
                break
            with open(path, "a") as f:
                f.write(item)
            fcntl.flock(lf, fcntl.LOCK_UN)
        with open(path, "a") as f:
            f.write("done\n")
