"""A lock taken and given back through two helpers. take_lock() breaks a lock
older than 30 s by name; drop_lock() only unlinks. Each writer calls both:
the bug is drop_lock's unlink (a holder paused past 30 s deletes its
successor's lock), reported once there, not at every writer."""
import os
import time
from pathlib import Path


def take_lock(lock_path, timeout=10.0):
    lock_path = Path(lock_path)
    start = time.time()
    while True:
        try:
            fd = os.open(str(lock_path), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            os.close(fd)
            return
        except FileExistsError:
            if time.time() - lock_path.stat().st_mtime > 30:
                lock_path.unlink(missing_ok=True)
                continue
            if time.time() - start > timeout:
                raise TimeoutError(str(lock_path))
            time.sleep(0.05)


def drop_lock(lock_path):
    Path(lock_path).unlink(missing_ok=True)


def write_notes(path, text):
    lock = Path(path).with_suffix(".lock")
    take_lock(lock)
    try:
        Path(path).write_text(text)
    finally:
        drop_lock(lock)


def append_event(path, line):
    lock = Path(path).with_suffix(".lock")
    take_lock(lock)
    try:
        with open(path, "a") as f:
            f.write(line + "\n")
    finally:
        drop_lock(lock)
