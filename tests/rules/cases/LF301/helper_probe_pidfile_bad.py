import os
from pathlib import Path

STATE = Path.home() / ".timeline"


def _pid_file() -> Path:
    return STATE / "server.pid"


def _write_pid(pid: int) -> None:
    _pid_file().write_text(str(pid))


def _read_pid() -> int:
    try:
        return int(_pid_file().read_text().strip())
    except (OSError, ValueError):
        return 0


def _is_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def _remove_pidfile() -> None:
    _pid_file().unlink(missing_ok=True)


def serve() -> None:
    _write_pid(os.getpid())


def start() -> None:
    if _is_alive(_read_pid()):
        return
    _remove_pidfile()
    serve()
