"""A context manager that makes the lock file's directory, opens and flocks
it, and swallows any OSError with a warning ("fail open"): the block then runs
unlocked. Its only caller in the module hands it on (`return
exclusive_file_lock(...)`), so the helper's callers are elsewhere."""
import fcntl
import logging
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def exclusive_file_lock(lock_path: Path):
    lock_file = None
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        lock_file = open(lock_path, "a")
        fcntl.flock(lock_file, fcntl.LOCK_EX)
    except OSError as e:
        logging.warning("could not acquire %s: %s", lock_path, e)
        if lock_file is not None:
            lock_file.close()
            lock_file = None
    try:
        yield
    finally:
        if lock_file is not None:
            fcntl.flock(lock_file, fcntl.LOCK_UN)
            lock_file.close()


def state_lock(state_path: Path):
    return exclusive_file_lock(state_path.with_suffix(".lock"))
