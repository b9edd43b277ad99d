"""Symlink locks: the link's target is the owner record (read back with
readlink, its pid probed), or the link's age decides that it is stale. Both
are broken by name after the judgement: a lock another process took in
between is deleted."""
import os
import time

LOCK = "/tmp/app.lock"
STALE_LOCK = "/tmp/app-stale.lock"


def acquire(token: str) -> None:
    while True:
        try:
            os.symlink(token, LOCK)
            return
        except FileExistsError:
            owner = os.readlink(LOCK)
            pid = int(owner.rsplit(":", 1)[1])
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os.unlink(LOCK)
            time.sleep(0.1)


def acquire_or_break() -> bool:
    try:
        os.symlink("held", STALE_LOCK)
        return True
    except FileExistsError:
        if time.time() - os.lstat(STALE_LOCK).st_mtime > 60:
            os.unlink(STALE_LOCK)
        return False
