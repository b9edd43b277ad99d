"""File ages that have nothing to do with locks."""

import os
import time


def cache_is_fresh(path, ttl=300):
    return time.time() - os.path.getmtime(path) < ttl


def rotate_logs(log_dir, max_age=86400):
    now = time.time()
    for name in os.listdir(log_dir):
        p = os.path.join(log_dir, name)
        if now - os.stat(p).st_mtime > max_age:
            os.remove(p)
