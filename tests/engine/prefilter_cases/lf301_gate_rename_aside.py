"""LF301 gate: the only removal is a rename that moves the flocked lock aside;
every `remove` here is list.remove, which alone the gate skips."""
import fcntl
import os


class Holder:
    def __init__(self, path):
        self.lock_path = path
        self.waiters = []

    def acquire(self):
        fcntl.flock(open(self.lock_path, "a"), fcntl.LOCK_EX)

    def forget(self, w):
        self.waiters.remove(w)

    def release(self):
        os.rename(self.lock_path, self.lock_path + ".old")
