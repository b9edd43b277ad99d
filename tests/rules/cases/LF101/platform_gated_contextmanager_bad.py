"""A sync lock helper that imports fcntl itself, after leaving early on
Windows: there the sync runs with no lock at all."""
import os
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path

LOCK_FILE = Path.home() / ".sync" / "sync.lock"


@contextmanager
def sync_lock(lock_path: Path = LOCK_FILE):
    if sys.platform == "win32":
        warnings.warn("file locking not available on Windows")
        yield None
        return

    import fcntl

    fd = os.open(str(lock_path), os.O_CREAT | os.O_RDWR, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield fd
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
