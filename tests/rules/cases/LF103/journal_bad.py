"""Event journals whose only exclusivity is the exclusive create of the first
record: a second process resuming the same journal appends alongside."""
import json
import os


class RunJournal:
    def __init__(self, path):
        self.path = path
        self.opened = False

    def add(self, record):
        line = json.dumps(record) + "\n"
        if not self.opened:
            with open(self.path, "x", encoding="utf-8") as fh:
                fh.write(line)
            self.opened = True
            return
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(line)


def append_event(log_path, event):
    data = (json.dumps(event) + "\n").encode()
    try:
        fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        fd = os.open(log_path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
