"""LF104's gate: pickle, read and written through the module's own helpers."""
import pickle


def _load(path):
    with open(path, "rb") as f:
        return pickle.load(f)


def _save(path, value):
    with open(path, "wb") as f:
        pickle.dump(value, f)


def remember(path, item):
    seen = _load(path)
    seen.add(item)
    _save(path, seen)
