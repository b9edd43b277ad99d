"""Per-note counters bumped by several hook processes."""

import contextlib
import logging
import os

log = logging.getLogger(__name__)

try:
    import fcntl as _fl
    _HAVE_LOCKING = True
except ImportError:
    _HAVE_LOCKING = False


@contextlib.contextmanager
def _note_lock(note_path):
    if not _HAVE_LOCKING:
        log.debug("no fcntl here: the counter update runs unlocked")
        yield
        return
    fd = os.open(note_path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        _fl.flock(fd, _fl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def bump_views(note_path):
    with _note_lock(note_path):
        with open(note_path) as fh:
            views = int(fh.read() or "0")
        with open(note_path, "w") as fh:
            fh.write(str(views + 1))
