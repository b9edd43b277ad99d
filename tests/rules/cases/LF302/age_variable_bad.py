import os
import time


def reclaim_if_old(lock_path, max_age=30):
    """Break the lock when its file looks old enough."""
    try:
        age = time.time() - os.path.getmtime(lock_path)
    except FileNotFoundError:
        return False
    if age > max_age:
        os.unlink(lock_path)
        return True
    return False
