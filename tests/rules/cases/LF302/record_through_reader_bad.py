"""A check-then-write lock whose record is read by the module's reader and
judged by a helper handed that record: acquire() breaks it once the time its
holder wrote is older than a minute, which a holder that merely runs long
loses. status() judges the same age only to print it: no finding there."""
import json
import time
from pathlib import Path

LOCK = Path("/tmp/app.lock")
STALE = 60


def _read_lock(lock_path):
    try:
        return json.loads(lock_path.read_text())
    except (OSError, ValueError):
        return None


def _is_stale(info):
    created = info.get("timestamp", 0)
    return (time.time() - created) > STALE


def acquire(holder):
    while True:
        existing = _read_lock(LOCK)
        if existing is None or _is_stale(existing):
            break
        time.sleep(1)
    LOCK.write_text(json.dumps({"holder": holder, "timestamp": time.time()}))


def release():
    if LOCK.exists():
        LOCK.unlink()


def status():
    info = _read_lock(LOCK)
    if info:
        age = time.time() - info.get("timestamp", 0)
        print("stale" if age > STALE else "held", info.get("holder"))
