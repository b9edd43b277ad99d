import json
import os
import time


def load_cached(cache_path, ttl=300.0):
    """A cache's age decides a refetch; the cache file is no lock."""
    try:
        age = time.time() - os.stat(cache_path).st_mtime
    except FileNotFoundError:
        age = ttl + 1.0
    if age > ttl:
        return None
    with open(cache_path) as f:
        return json.load(f)
