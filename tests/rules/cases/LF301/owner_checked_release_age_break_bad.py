"""A lock released only while its record names this process, in a module
that breaks the lock on its age alone: a holder paused between its owner
check and its unlink can have lost the lock to a breaker and a successor by
then, and its unlink deletes the successor's lock. The release (line 34) is
reported as a release of a lock the module breaks; the break (line 24) too."""
import json
import os
import time

LOCK = "/tmp/jobs/export.lock"


def read():
    with open(LOCK) as f:
        return json.load(f)


def acquire():
    try:
        fd = os.open(LOCK, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        if time.time() - os.path.getmtime(LOCK) < 600:
            return False
        os.unlink(LOCK)
        return False
    os.write(fd, json.dumps({"pid": os.getpid()}).encode())
    os.close(fd)
    return True


def release():
    rec = read()
    if rec["pid"] == os.getpid():
        os.unlink(LOCK)
