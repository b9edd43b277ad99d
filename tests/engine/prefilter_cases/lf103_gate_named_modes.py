"""LF103 gate: the modes are bound to names (module constants), so no open()
spells them, and every other 'a' and 'x' here is an argument of a call that is
no open(); the gate must let this file through."""
import json

CREATE = "x"
APPEND = "a"
LETTERS = dict(first="a", second="x")


def label(value):
    return format(value, "x")


class Journal:
    def __init__(self, path):
        self.path = path
        self.opened = False

    def add(self, record):
        line = json.dumps(record) + "\n"
        if not self.opened:
            with open(self.path, CREATE) as fh:
                fh.write(line)
            self.opened = True
            return
        with open(
            self.path,
            APPEND,
        ) as fh:
            fh.write(line)
