"""An old lock whose record names no pid is broken on its age alone: the
probe runs only when a pid was recorded, so a paused holder that wrote none
loses its lock."""
import json
import os
import time

MAX_AGE = 30.0


def clean_stale(path):
    try:
        with open(path) as fh:
            info = json.load(fh)
    except (OSError, ValueError):
        info = {}
    if time.time() - os.stat(path).st_mtime > MAX_AGE:
        if "pid" in info:
            try:
                os.kill(info["pid"], 0)
                return
            except ProcessLookupError:
                pass
        os.unlink(path)


def acquire(path):
    clean_stale(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    os.write(fd, json.dumps({"pid": os.getpid()}).encode())
    os.close(fd)
