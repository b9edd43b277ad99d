"""The `finally` after the lock also logs, so the fix declines; the Windows copy
below still runs unlocked and must be reported (the mutation suite found this
site silently dropped when the finally was not only a release)."""

import json
import os
import sys

if sys.platform != "win32":
    import fcntl
else:
    fcntl = None

AUDIT = []


def bump(path, key):
    if fcntl is not None:
        try:
            fd = os.open(path + ".lock", os.O_CREAT | os.O_RDWR, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                state = json.load(open(path))
                state[key] = state.get(key, 0) + 1
                json.dump(state, open(path, "w"))
                return state[key]
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
                AUDIT.append("released")
        except OSError:
            pass
    state = json.load(open(path))
    state[key] = state.get(key, 0) + 1
    json.dump(state, open(path, "w"))
    return state[key]


def bump_acquire_in_try(path, key):
    if fcntl is not None:
        try:
            lock_file = open(path + ".lock", "a+")
            try:
                fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX)
                state = json.load(open(path))
                state[key] = state.get(key, 0) + 1
                json.dump(state, open(path, "w"))
                return state[key]
            finally:
                fcntl.flock(lock_file.fileno(), fcntl.LOCK_UN)
                lock_file.close()
                AUDIT.append("released")
        except OSError:
            pass
    state = json.load(open(path))
    state[key] = state.get(key, 0) + 1
    json.dump(state, open(path, "w"))
    return state[key]
