"""A temp locked while it is written, renamed onto the document it publishes,
and unlinked when writing it fails: it is an atomic write's temp, not a lock
anyone waits on, so its removal removes no lock."""
import fcntl
import json
import os
import tempfile
from pathlib import Path


def save_registry(path: Path, registry) -> bool:
    fd, name = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    temp = Path(name)
    try:
        with os.fdopen(fd, "w") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                json.dump(registry, fh)
                fh.flush()
                os.fsync(fh.fileno())
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)
        temp.rename(path)
        return True
    except OSError:
        if temp.exists():
            try:
                temp.unlink()
            except OSError:
                pass
        return False


def save_notes(path, notes) -> None:
    temp = "%s.%d.tmp" % (path, os.getpid())
    lock = open(temp, "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        lock.write(notes)
        lock.flush()
    except OSError:
        lock.close()
        os.remove(temp)
        raise
    lock.close()
    os.replace(temp, path)
