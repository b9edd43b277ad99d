"""Comments claiming an owner check, an identity check or a re-raise do not make age-based breaking safe."""
import os
import time


def break_if_stale(lock_path, max_age=60):
    # the owner's pid is probed first and st_ino compared (neither is, in fact)
    # raise instead of breaking while the holder may block on I/O
    if time.time() - os.stat(lock_path).st_mtime > max_age:
        os.remove(lock_path)


def take(lock_path):
    while True:
        try:
            os.close(os.open(lock_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            return
        except FileExistsError:
            break_if_stale(lock_path)
            time.sleep(0.1)
