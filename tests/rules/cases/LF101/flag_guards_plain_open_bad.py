"""A module flag decides whether the plain open() also gets locked."""

import json

try:
    import fcntl

    _HAS_FCNTL = True
except ImportError:  # Windows
    _HAS_FCNTL = False


def _load(path):
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return {}


def _store(path, doc):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)


def tally(path, word):
    with open(path + ".lock", "w") as guard:
        if _HAS_FCNTL:
            fcntl.flock(guard, fcntl.LOCK_EX)
        doc = _load(path)
        doc[word] = doc.get(word, 0) + 1
        _store(path, doc)
        return doc[word]
