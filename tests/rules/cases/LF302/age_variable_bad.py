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


def take(lock_path):
    while True:
        try:
            os.close(os.open(lock_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            return
        except FileExistsError:
            reclaim_if_old(lock_path)
            time.sleep(0.1)
