"""The same pid file, but a second run refuses to start while it exists:
now it excludes, so it is a lock, and removing it by name after only an
existence test deletes whatever holder wrote it last."""
import os
import sys
from pathlib import Path

PID_FILE = Path.home() / ".indexer" / "indexer.pid"


def run(jobs):
    if PID_FILE.exists():
        sys.exit("already running")
    PID_FILE.write_text(str(os.getpid()))
    for job in jobs:
        job()
    if PID_FILE.exists():
        PID_FILE.unlink(missing_ok=True)
