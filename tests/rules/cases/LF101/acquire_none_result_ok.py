"""A lock class following a base class's contract: acquire() returns True once
locked and None when the lock cannot be taken. Every caller in the module
tests the result before its critical section."""
import fcntl
import json
import logging


class Lock:
    def acquire(self):
        raise NotImplementedError


class FileLock(Lock):
    def __init__(self, path):
        self.handle = open(path, "w")

    def acquire(self):
        if self.handle is None:
            return None
        try:
            fcntl.flock(self.handle, fcntl.LOCK_EX)
            return True
        except OSError as ex:
            logging.error("acquire failed: %s", ex)
            return None

    def release(self):
        fcntl.flock(self.handle, fcntl.LOCK_UN)


def record(lock, state_path, key):
    if not lock.acquire():
        raise RuntimeError("state is locked")
    try:
        with open(state_path) as f:
            state = json.load(f)
        state[key] = True
        with open(state_path, "w") as f:
            json.dump(state, f)
    finally:
        lock.release()
