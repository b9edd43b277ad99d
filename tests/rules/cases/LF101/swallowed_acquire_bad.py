"""POSIX-only tool that still proceeds when flock fails."""

import fcntl
import json
import os


def record(path, key):
    lock_path = path + ".lock"
    try:
        fd = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        try:
            state = json.load(open(path))
            state[key] = state.get(key, 0) + 1
            json.dump(state, open(path, "w"))
            return
        finally:
            os.close(fd)
    except OSError:
        pass  # somebody else holds it: do it anyway
    state = json.load(open(path))
    state[key] = state.get(key, 0) + 1
    json.dump(state, open(path, "w"))
