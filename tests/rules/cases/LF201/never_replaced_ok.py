"""The confinement guard of a file the module only reads: Python's realpath()
resolves the directories above a missing file, and nothing here replaces or
deletes the file, so it is never momentarily absent."""

import json
import os

STRATEGIES = os.path.expanduser("~/.strategies")


def strategy_path(name):
    path = os.path.join(STRATEGIES, name)
    if not os.path.realpath(path).startswith(os.path.realpath(STRATEGIES) + os.sep):
        raise ValueError(name)
    return path


def load(name):
    with open(strategy_path(name)) as f:
        return json.load(f)


def save(name, data):
    # Written in place (no temp, no rename): the file is never absent once it exists.
    with open(strategy_path(name), "w") as f:
        json.dump(data, f)
