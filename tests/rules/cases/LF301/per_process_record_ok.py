import json
import os
from pathlib import Path

import psutil

WATCHERS = Path.home() / ".watchers"


def record_path(pid: int) -> Path:
    return WATCHERS / f"{pid}.json"


def write_record(parent_pid: int, watcher_pid: int) -> None:
    data = {"parent_pid": parent_pid, "watcher_pid": watcher_pid}
    record_path(parent_pid).write_text(json.dumps(data))


def touch_record(parent_pid: int) -> None:
    rec = record_path(parent_pid)
    if rec.exists():
        data = json.loads(rec.read_text())
        rec.write_text(json.dumps(data))


def remove_record(parent_pid: int) -> None:
    record_path(parent_pid).unlink(missing_ok=True)


def watch(parent_pid: int) -> None:
    write_record(parent_pid, os.getpid())
    if not psutil.pid_exists(parent_pid):
        remove_record(parent_pid)


def cleanup_orphans() -> None:
    for rec in WATCHERS.glob("*.json"):
        data = json.loads(rec.read_text())
        if not psutil.pid_exists(data["parent_pid"]):
            rec.unlink()
