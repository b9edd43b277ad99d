# A lock held across the read and the write: the caller's own `with`, or an
# acquire helper that returns with the lock held and a release after the write.
import fcntl
import json

from filelock import FileLock

MAP = "/srv/app/map.json"
MAP_LOCK = "/srv/app/map.lock"


def read_map():
    with FileLock(MAP_LOCK + ".r"):
        with open(MAP) as f:
            return json.load(f)


def write_map(data):
    with FileLock(MAP_LOCK + ".w"):
        with open(MAP, "w") as f:
            json.dump(data, f)


def acquire():
    fd = open(MAP_LOCK, "w")
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def under_callers_lock(k):
    with FileLock(MAP_LOCK):
        data = read_map()
        data[k] = data.get(k, 0) + 1
        write_map(data)


def under_acquired_lock(k):
    fd = acquire()
    data = read_map()
    data[k] = data.get(k, 0) + 1
    write_map(data)
    fcntl.flock(fd, fcntl.LOCK_UN)
