"""Registry shared by worker processes; portalocker is optional."""

import json
import os

try:
    import portalocker
except ImportError:  # not installed: run without it
    portalocker = None


def _load(path):
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        return {}


def _save(path, data):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh)


def register(path, worker_id, info):
    if portalocker:
        with portalocker.Lock(path + ".lock", timeout=5):
            registry = _load(path)
            registry[worker_id] = info
            _save(path, registry)
    else:
        registry = _load(path)
        registry[worker_id] = info
        _save(path, registry)
