"""take() returns the path of the lock it created (None when it is taken);
its caller releases that path by name. The module also sweeps the lock
directory for locks older than a limit and deletes them: a holder slower than
the limit has its lock broken, and its release then deletes the lock of the
process that took it meanwhile."""

import os
import time
from pathlib import Path

SLOTS = Path.home() / ".cache" / "digest" / "slots"
MAX_AGE = 300


def _sweep():
    for old in SLOTS.glob("slot-*.lock"):
        if time.time() - old.stat().st_mtime > MAX_AGE:
            old.unlink(missing_ok=True)


def take(name):
    SLOTS.mkdir(parents=True, exist_ok=True)
    _sweep()
    lock_path = SLOTS / f"slot-{name}.lock"
    try:
        fd = os.open(lock_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return None
    os.close(fd)
    return lock_path


def digest(name, work):
    lock_path = take(name)
    if lock_path is None:
        return False
    try:
        work()
    finally:
        lock_path.unlink(missing_ok=True)
    return True
