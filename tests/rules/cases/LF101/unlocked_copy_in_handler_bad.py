"""A locking decorator whose lock is the state file itself: when the file
does not exist yet, opening it fails and the handler runs the wrapped update
anyway, with no lock, while every other call holds flock."""
import fcntl
import functools
import json


def serialized(func):
    @functools.wraps(func)
    def wrapper(path, *args):
        try:
            fd = open(path, "r")
        except FileNotFoundError:
            return func(path, *args)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                continue
        try:
            return func(path, *args)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            fd.close()

    return wrapper


@serialized
def add_pid(path, pid):
    try:
        with open(path) as f:
            pids = json.load(f)
    except (FileNotFoundError, ValueError):
        pids = []
    pids.append(pid)
    with open(path, "w") as f:
        json.dump(pids, f)
