"""Pid files under the user's home or per-user directories, read with EPERM
as "dead": still the bug. A tool run once with sudo, or a daemon started by
root, writes its pid there, and the user's next run gets EPERM from that live
holder and takes its lock. Each probe is reported for EPERM; the records carry
the owner's start time, so none is reported for pid reuse."""
import json
import os
import pathlib
from pathlib import Path

STATE_DIR = Path.home() / ".claude" / "state"
RUNTIME = os.environ["XDG_RUNTIME_DIR"]


def _pid_file():
    return STATE_DIR / "daemon.pid"


def daemon_running():
    rec = json.loads(_pid_file().read_text())
    try:
        os.kill(rec["pid"], 0)
    except OSError:
        return False
    return rec["start_time"] == _start_time(rec["pid"])


def _start_time(pid):
    with open(f"/proc/{pid}/stat") as fh:
        return fh.read().split()[21]


class UserLock:
    def __init__(self, name):
        self.path = pathlib.Path(f"~/.config/tool/{name}.lock").expanduser()

    def holder_alive(self):
        with open(self.path) as fh:
            rec = json.load(fh)
        try:
            os.kill(rec["pid"], 0)
            return True
        except (ProcessLookupError, PermissionError):
            return False


def runtime_holder_alive():
    with open(os.path.join(RUNTIME, "tool.pid")) as fh:
        pid = int(fh.read())
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def config_holder_alive(config_home):
    pid = int(open(os.path.join(config_home, "tool.pid")).read())
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def xdg_holder_alive():
    base = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    pid = int(Path(base, "tool.pid").read_text())
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def tuple_record_alive():
    record = Path.home() / ".tool.pid"
    pid, started = record.read_text().split(":")
    try:
        os.kill(int(pid), 0)
    except OSError:
        return False
    return started == _start_time(pid)
