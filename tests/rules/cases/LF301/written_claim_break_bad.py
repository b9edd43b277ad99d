"""A lock claimed by writing a record (no exclusive create), broken on the
age recorded in it, released by name: its breaks and releases delete other
holders' claims like any lock's."""
import json
import time
from pathlib import Path

LOCK_DIR = Path.home() / ".locks"


def _lock_path(name):
    return LOCK_DIR / f"{name}.lock"


def acquire(name, holder):
    path = _lock_path(name)
    if path.exists():
        record = json.loads(path.read_text())
        if time.time() - record["at"] > 60:
            path.unlink()
        else:
            return False
    path.write_text(json.dumps({"holder": holder, "at": time.time()}))
    return True


def release(name):
    path = _lock_path(name)
    if path.exists():
        path.unlink()

