"""LF301 gate: os.remove imported by name (`from os import remove as rm`), and a
method named remove; the gate must let this file through."""
import fcntl
from os import remove as rm


class Holder:
    def __init__(self, path):
        self.lock_path = path

    def acquire(self):
        fcntl.flock(open(self.lock_path, "a"), fcntl.LOCK_EX)

    def remove(self):
        rm(self.lock_path)
