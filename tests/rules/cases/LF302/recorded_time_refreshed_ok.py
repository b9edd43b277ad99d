import json
import os
import time
from pathlib import Path

LOCK = Path.home() / ".worker.lock"


def acquire() -> bool:
    if LOCK.exists():
        data = json.loads(LOCK.read_text())
        if time.time() - data["beat"] < 30:
            return False
    LOCK.write_text(json.dumps({"pid": os.getpid(), "beat": time.time()}))
    return True


def heartbeat() -> None:
    """The holder rewrites its time while it works: the record is a heartbeat."""
    LOCK.write_text(json.dumps({"pid": os.getpid(), "beat": time.time()}))


def release() -> None:
    LOCK.unlink(missing_ok=True)
