"""A best-effort flock context manager: when the lock stays busy past its
deadline it yields anyway, so the counter update below runs unlocked."""
import fcntl
import json
import os
import time
from contextlib import contextmanager

LOCK = os.path.expanduser("~/.cache/tool/counter.lock")
STATE = os.path.expanduser("~/.cache/tool/counter.json")


@contextmanager
def counter_lock(wait=1.5):
    fd = os.open(LOCK, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                yield
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield
                    return
                time.sleep(0.02)
    finally:
        os.close(fd)


def bump(key):
    with counter_lock():
        try:
            with open(STATE) as f:
                data = json.load(f)
        except FileNotFoundError:
            data = {}
        data[key] = data.get(key, 0) + 1
        with open(STATE, "w") as f:
            json.dump(data, f)
