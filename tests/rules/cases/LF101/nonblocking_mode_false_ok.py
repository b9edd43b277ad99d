"""A context manager that yields False only in the non-blocking mode a
caller asks for: the caller here takes the default (blocking) mode, so it
never runs without the lock."""
import contextlib
import fcntl
import json
import os


@contextlib.contextmanager
def _flock(path, *, blocking=True):
    handle = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        if not blocking:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                yield False
                return
        else:
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield True
    finally:
        os.close(handle)


def bump(state_path):
    with _flock(state_path + ".lock"):
        with open(state_path) as f:
            data = json.load(f)
        data["n"] = data.get("n", 0) + 1
        with open(state_path, "w") as f:
            json.dump(data, f)
