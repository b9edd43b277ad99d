"""The acquire helper returns the lock's path in a tuple; the caller unpacks
it and releases by name, while waiters break the lock after a deadline."""
import os
import time


def _take(log_path):
    lock_path = log_path + ".lock"
    deadline = time.monotonic() + 2.0
    while True:
        try:
            fd = os.open(lock_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            os.close(fd)
            return lock_path, True
        except FileExistsError:
            if time.monotonic() > deadline:
                os.unlink(lock_path)
                continue
            time.sleep(0.005)


def log(log_path, line):
    lock_path, _ = _take(log_path)
    try:
        with open(log_path, "a") as f:
            f.write(line)
    finally:
        os.unlink(lock_path)
