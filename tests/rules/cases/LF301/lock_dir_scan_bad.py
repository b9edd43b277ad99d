import fcntl
import hashlib
import time
from pathlib import Path

LOCK_DIR = Path("/tmp/app_locks")
STALE = 2 * 60 * 60


def _lock_name(project: str) -> str:
    return f"app_{hashlib.sha1(project.encode()).hexdigest()[:8]}.lock"


def cleanup_stale_locks() -> int:
    removed = 0
    now = time.time()
    for lock_file in LOCK_DIR.glob("app_*.lock"):
        if now - lock_file.stat().st_mtime > STALE:
            lock_file.unlink(missing_ok=True)
            removed += 1
    return removed


class ProjectLock:
    def __init__(self, project: str):
        self.path = LOCK_DIR / _lock_name(project)
        self.f = None

    def __enter__(self):
        cleanup_stale_locks()
        self.f = open(self.path, "w")
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()
