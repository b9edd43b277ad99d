"""A lock claimed by writing it and taken over by writing it again once its
mtime is old: the holder's release by name deletes the new claim. The caller
that acquires and then releases through the helpers is the same bug, not a
second one."""
import time
from pathlib import Path

_LOCK_NAME = ".build.lock"


def _acquire(out_dir: Path, min_age: int) -> bool:
    lock = out_dir / _LOCK_NAME
    if lock.exists():
        if time.time() - lock.stat().st_mtime < min_age:
            return False
    lock.write_text(str(int(time.time())))
    return True


def _release(out_dir: Path) -> None:
    try:
        (out_dir / _LOCK_NAME).unlink()
    except OSError:
        pass


def main(out_dir: Path) -> int:
    if not _acquire(out_dir, 60):
        return 0
    try:
        time.sleep(1)
    finally:
        _release(out_dir)
    return 0
