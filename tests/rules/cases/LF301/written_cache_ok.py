"""A cache written, judged by its age and removed goes through the same steps
as a check-then-write lock, but nothing names it a lock: no finding."""
import json
import time
from pathlib import Path

CACHE = Path.home() / ".cache" / "tool" / "index.json"


def load():
    if CACHE.exists():
        data = json.loads(CACHE.read_text())
        if time.time() - data["at"] > 3600:
            CACHE.unlink()
            return None
        return data
    return None


def store(items):
    CACHE.write_text(json.dumps({"at": time.time(), "items": items}))


def clear():
    if CACHE.exists():
        CACHE.unlink()
