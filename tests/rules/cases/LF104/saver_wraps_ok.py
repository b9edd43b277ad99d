# A saver whose literal holds two parameters, or none: which one is the
# document is not guessed.
import json
import os


def _load(path):
    with open(path) as f:
        return json.load(f)


def _save_pair(path, a, b):
    data = {"a": a, "b": b}
    with open(path, "w") as f:
        json.dump(data, f)


def _save_fixed(path, a):
    data = {"version": 1}
    with open(path, "w") as f:
        json.dump(data, f)


def both(path, k):
    cur = _load(path)
    cur[k] = 1
    _save_pair(path, cur, {})


def fixed(path, k):
    cur = _load(path)
    cur[k] = 1
    _save_fixed(path, cur)
