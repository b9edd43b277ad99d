import json
import time
from pathlib import Path

CACHE = Path.home() / ".cache" / "quota.json"


def cached_quota(fetch):
    """A cache's recorded time decides a refetch; the cache is no lock."""
    if CACHE.exists():
        data = json.loads(CACHE.read_text())
        if time.time() - data["fetched_at"] < 300:
            return data["value"]
    value = fetch()
    CACHE.write_text(json.dumps({"fetched_at": time.time(), "value": value}))
    return value
