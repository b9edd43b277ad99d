"""A daemon's pid file read through a helper that returns (pid, port): the
probe trusts whatever process now has that pid (no start-time check), so a
reused pid keeps the dead server 'running'. The pid file is under the user's
home, so reading EPERM as dead is not the problem here; pid reuse is."""
import os
import pathlib

STATE = pathlib.Path.home() / ".cache" / "viewer"


def _pid_file():
    return STATE / "server.pid"


def _read_pid():
    try:
        return int(_pid_file().read_text().strip()), 8080
    except (OSError, ValueError):
        return 0, 8080


def _is_alive(pid):
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def start():
    pid, port = _read_pid()
    if _is_alive(pid):
        return port
    _pid_file().write_text(str(os.getpid()))
    return port
