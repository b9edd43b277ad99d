import fcntl
import time
from pathlib import Path

CACHE_DIR = Path("/tmp/app_cache")
TTL = 3600


def prune() -> None:
    """The scan walks the cache's entries; the lock beside them is never matched."""
    now = time.time()
    for entry in CACHE_DIR.glob("*.json"):
        if now - entry.stat().st_mtime > TTL:
            entry.unlink(missing_ok=True)


def update(key: str, text: str) -> None:
    with open(CACHE_DIR / "cache.lock", "w") as lf:
        fcntl.flock(lf, fcntl.LOCK_EX)
        prune()
        (CACHE_DIR / f"{key}.json").write_text(text)
