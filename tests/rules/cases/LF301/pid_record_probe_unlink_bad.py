"""Process helpers of a CLI library: a pid file read, its pid probed, and the
file removed when the owner is gone. Nothing here creates it exclusively,
but reading it to decide who runs makes it a pid lock: a start that wrote
its own pid in between loses its file to the stale removal."""
import os
from pathlib import Path


def read_pid_file(pid_path: Path) -> int | None:
    try:
        pid = int(pid_path.read_text().strip())
    except (ValueError, OSError):
        return None
    return pid if pid > 0 else None


def is_process_running(pid_path: Path, remove_stale: bool = False) -> bool:
    pid = read_pid_file(pid_path)
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        if remove_stale:
            pid_path.unlink(missing_ok=True)
        return False
    except PermissionError:
        return True
    return True


def stale_daemon_pid(pid_path: Path) -> int | None:
    with pid_path.open() as f:
        pid = int(f.read().strip())
    try:
        os.kill(pid, 0)
        return pid
    except ProcessLookupError:
        pid_path.unlink()
        return None
