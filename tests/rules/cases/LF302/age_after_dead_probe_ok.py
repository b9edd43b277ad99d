"""The lock's age is looked at only once its recorded holder is found dead
(the live branch leaves first): a young lock of a dead holder is left for
a while longer. The age holds back a break, it never breaks a live
holder's lock, so it is no staleness verdict."""
import os
import time
from pathlib import Path

LOCK = Path("/tmp/tool/restore.lock")
GRACE = 3600


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def take():
    try:
        fd = os.open(str(LOCK), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        pid = int(LOCK.read_text().strip() or 0)
        if _alive(pid):
            raise SystemExit("another instance runs (pid %d)" % pid)
        else:
            age = time.time() - LOCK.stat().st_mtime
            if age < GRACE:
                raise SystemExit("a dead holder's lock, not old enough to break")
            LOCK.unlink()
            fd = os.open(str(LOCK), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
