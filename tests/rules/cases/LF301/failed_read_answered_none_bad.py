"""A lock file read through a helper that answers None when the record does
not parse: `if not rec:` is the test of a failed read, as an except clause
would be. A lock another hook has created with open("x") but not yet filled
reads as None, and the removal at line 35 deletes it: a bug of its own. The
stale break after it (line 38) is another."""
import json
import os
import time
from pathlib import Path

LOCK = Path("/tmp/hooks/dev-server.lock")


def read_lock(path):
    try:
        return json.loads(path.read_text())
    except (ValueError, OSError):
        return None


def write_lock(path):
    try:
        with open(path, "x") as f:
            json.dump({"pid": os.getpid(), "at": time.time()}, f)
        return True
    except FileExistsError:
        return False


def claim():
    if write_lock(LOCK):
        return True
    rec = read_lock(LOCK)
    if not rec:
        LOCK.unlink(missing_ok=True)
        return write_lock(LOCK)
    if time.time() - rec["at"] > 600:
        LOCK.unlink(missing_ok=True)
        return write_lock(LOCK)
    return False
