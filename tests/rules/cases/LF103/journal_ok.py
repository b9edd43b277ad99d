"""Journals with a writer lock where they append, and appends to files that
are never created exclusively."""
import fcntl
import json


class LockedJournal:
    def __init__(self, path):
        self.path = path
        self.opened = False

    def add(self, record):
        line = json.dumps(record) + "\n"
        if not self.opened:
            with open(self.path, "x") as fh:
                fh.write(line)
            self.opened = True
            return
        with open(self.path, "a") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            fh.write(line)


def plain_log(path, line):
    with open(path, "a") as fh:
        fh.write(line)
