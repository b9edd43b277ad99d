"""Captured-session list guarded by a lock directory with a timeout."""

import time
from pathlib import Path


class DirLock:
    def __init__(self, path, timeout=5.0):
        self.path = Path(path)
        self.timeout = timeout

    def acquire(self):
        start = time.monotonic()
        while time.monotonic() - start < self.timeout:
            try:
                self.path.mkdir(parents=True, exist_ok=False)
                return True
            except FileExistsError:
                time.sleep(0.05)
        return False

    def release(self):
        try:
            self.path.rmdir()
        except OSError:
            pass


def mark_captured(listing, session_id):
    lock = DirLock(str(listing) + ".lock")
    try:
        lock.acquire()
        seen = Path(listing).read_text().split() if Path(listing).exists() else []
        if session_id not in seen:
            with open(listing, "a") as fh:
                fh.write(session_id + "\n")
    finally:
        lock.release()
