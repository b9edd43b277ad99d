"""A lock whose record holds its holder's pid and start time. The reader
helper returns the parsed record through names (`raw`, `data`); the
verdict helper is handed that record, probes the pid, then also calls a
live holder stale once its recorded start is older than the limit
(line 44), and says so by returning True: its caller removes the lock. A
holder that merely runs long loses a lock it still holds."""
import json
import os
from datetime import datetime, timezone
from pathlib import Path

MAX_AGE = 15 * 60


def _read_lock(path):
    try:
        raw = path.read_text()
        data = json.loads(raw)
        if "pid" in data:
            return data
        return None
    except (OSError, ValueError):
        return None


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _is_stale(record):
    pid = record.get("pid")
    if pid is None or not _alive(pid):
        return True
    try:
        started = datetime.fromisoformat(record.get("started_at", ""))
    except ValueError:
        return True
    if (datetime.now(timezone.utc) - started).total_seconds() > MAX_AGE:
        return True
    return False


def held(path: Path) -> bool:
    if not path.exists():
        return False
    data = _read_lock(path)
    if data is None:
        return False
    if _is_stale(data):
        path.unlink(missing_ok=True)
        return False
    return True


def take(path: Path) -> bool:
    if held(path):
        return False
    path.write_text(json.dumps({"pid": os.getpid(), "started_at": datetime.now(timezone.utc).isoformat()}))
    return True
