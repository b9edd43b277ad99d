"""Daily event logs: each append holds flock on the log itself, and old days
are deleted past retention. The logs are data, not locks: no one waits on a
day's file to hold anything."""
import fcntl
import json
import os
import time
from pathlib import Path

LOG_DIR = Path.home() / ".telemetry"


def record(event: dict) -> None:
    log = LOG_DIR / f"events-{time.strftime('%Y-%m-%d')}.jsonl"
    fd = os.open(str(log), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, (json.dumps(event) + "\n").encode())
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def prune(before: str) -> int:
    removed = 0
    for f in LOG_DIR.glob("events-*.jsonl"):
        if f.stem.replace("events-", "") < before:
            f.unlink()
            removed += 1
    return removed
