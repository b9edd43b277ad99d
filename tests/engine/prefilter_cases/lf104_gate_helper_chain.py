"""LF104's gate, per function: the read and the write meet only in bump(),
through a chain of the module's helpers and a class's methods."""
import json

STATE = "state.json"


def _raw():
    with open(STATE) as f:
        return json.load(f)


def _read():
    return _raw()


def _save(value):
    with open(STATE, "w") as f:
        json.dump(value, f)


def bump(key):
    counts = _read()
    counts[key] = counts.get(key, 0) + 1
    _save(counts)


class Ledger:
    def __init__(self, path):
        self.path = path

    def _load(self):
        with open(self.path) as f:
            return json.load(f)

    def _store(self, value):
        with open(self.path, "w") as f:
            json.dump(value, f)

    def add(self, entry):
        rows = self._load()
        rows.append(entry)
        self._store(rows)
