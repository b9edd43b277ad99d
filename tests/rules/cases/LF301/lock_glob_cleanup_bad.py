"""A cleanup of the lock files other hooks write (this module writes none):
each is read, judged by the time recorded in it, and removed by name."""
import json
import time
from pathlib import Path

LOCK_DIR = Path.home() / ".claude" / "locks"


def cleanup_expired(timeout=300):
    removed = 0
    for lock_file in LOCK_DIR.glob("*.lock"):
        record = json.loads(lock_file.read_text())
        if time.time() - record["timestamp"] >= timeout:
            lock_file.unlink()
            removed += 1
    return removed


def sizes():
    """Reading the lock files without removing any is no finding."""
    return {p.name: p.stat().st_size for p in LOCK_DIR.glob("*.lock")}
