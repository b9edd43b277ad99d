"""The same existence test in a function that breaks the lock (no OS lock released first) is a judgement."""
import os


LOCK_PATH = "/var/run/tool.lock"


def take():
    try:
        fd = os.open(LOCK_PATH, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    return True


def break_lock():
    if os.path.exists(LOCK_PATH):
        os.remove(LOCK_PATH)
