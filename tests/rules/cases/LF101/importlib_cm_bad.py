"""Queue of pending prompts, drained by one process and fed by others."""

import contextlib
import importlib
from pathlib import Path

try:
    locker = importlib.import_module("fcntl")
except ImportError:
    locker = None


@contextlib.contextmanager
def _queue_lock(folder):
    lock_file = Path(folder) / ".queue.lock"
    lock_file.touch(exist_ok=True)
    with lock_file.open("r+") as fh:
        if locker is not None:
            locker.flock(fh, locker.LOCK_EX)
        try:
            yield
        finally:
            if locker is not None:
                locker.flock(fh, locker.LOCK_UN)


def drain(folder):
    queue = Path(folder) / "queue.txt"
    with _queue_lock(folder):
        lines = queue.read_text().splitlines() if queue.exists() else []
        queue.write_text("")
    return lines
