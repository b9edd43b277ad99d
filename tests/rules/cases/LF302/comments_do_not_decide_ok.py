"""Comments that mention mtime-based staleness and lock removal are not code."""
import os


def prune(cache_dir):
    # if time.time() - os.path.getmtime(lock) > 60: os.remove(lock)
    # the lock is broken when st_mtime is older than the timeout
    for name in sorted(os.listdir(cache_dir)):
        print(name)
