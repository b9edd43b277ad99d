"""A singleton lock module: acquire_instance_lock() breaks a lock whose owner
is gone, release_instance_lock() removes it. Callers (elsewhere) hand both the
same path, so the release deletes whatever lock a newcomer took after breaking
this holder's."""
import json
import os
from pathlib import Path


def _owner_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def acquire_instance_lock(lock_path: str) -> bool:
    p = Path(lock_path)
    if p.exists():
        try:
            pid = int(json.loads(p.read_text()).get("pid", 0))
        except (OSError, ValueError):
            pid = 0
        if pid and _owner_alive(pid):
            return False
        p.unlink(missing_ok=True)
    fd = os.open(str(p), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    with os.fdopen(fd, "w") as f:
        json.dump({"pid": os.getpid()}, f)
    return True


def release_instance_lock(lock_path: str) -> None:
    Path(lock_path).unlink(missing_ok=True)
