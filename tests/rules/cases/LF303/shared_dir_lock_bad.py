"""The same probes on locks any user can hold: a temp directory, a shared
run directory, an override whose default is /tmp, a per-user file name under
the shared temp directory. EPERM there can be a live holder of another user."""
import json
import os
import tempfile
from pathlib import Path

LOCK_DIR = Path(os.environ.get("TOOL_LOCK_DIR", "/tmp")) / "tool"


def temp_holder_alive():
    pid = int(Path(tempfile.gettempdir(), "tool.pid").read_text())
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def override_holder_alive():
    with open(LOCK_DIR / "tool.lock") as fh:
        rec = json.load(fh)
    try:
        os.kill(rec["pid"], 0)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def named_for_user_alive():
    pid = int(open(f"/tmp/{os.path.expanduser('~').replace('/', '_')}.pid").read())
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def per_user_reused(started):
    """Under the home directory EPERM is right, but success is trusted without
    the owner's start time: reported for pid reuse."""
    pid = int((Path.home() / ".tool.pid").read_text())
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False
