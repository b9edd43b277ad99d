"""A daemon's pid file whose record is read into names (`content =
p.read_text().strip()`, then `pid = int(content)`) and handed to the
module's liveness helper: a pid lock by its protocol, whoever writes it. The
removal after the helper says the owner is gone (line 35) is a break by name
that two starters race (and the helper trusts a reused pid, line 18); the
stop command's removal after its kill helper (line 51, through the helper at
line 44) is no break."""
import os
import signal
from pathlib import Path


def _pid_file():
    return Path(os.environ.get("TOOL_RUN", "/run/tool")) / "server.pid"


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_pid():
    path = _pid_file()
    try:
        content = path.read_text().strip()
        pid = int(content)
    except (OSError, ValueError):
        return None
    if _alive(pid):
        return pid
    path.unlink(missing_ok=True)
    return None


def _terminate(pid):
    os.kill(pid, signal.SIGTERM)


def _remove_pid():
    _pid_file().unlink(missing_ok=True)


def stop():
    pid = read_pid()
    if pid:
        _terminate(pid)
        _remove_pid()
