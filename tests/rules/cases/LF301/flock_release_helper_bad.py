# lock() flocks a lock file through _acquire() and hands it back through
# _release(), which unlocks it and then unlinks it by name. A process that
# opened the old file while it was held then locks an unlinked inode while a
# newcomer creates and locks a fresh file: two holders. The bug is the
# helper's unlink, reported there once, not at the call.
import contextlib
import fcntl
import os
import tempfile
from pathlib import Path


def _acquire(lock_path: Path) -> int:
    fd = os.open(str(lock_path), os.O_CREAT | os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def _release(fd: int, lock_path: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
        try:
            lock_path.unlink()
        except OSError:
            pass


@contextlib.contextmanager
def lock(name: str):
    lock_path = Path(tempfile.gettempdir()) / f".{name}.lock"
    fd = _acquire(lock_path)
    try:
        yield lock_path
    finally:
        _release(fd, lock_path)
