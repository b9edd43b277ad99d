"""The same pid file, but a second run refuses to start while it exists:
now it excludes, so it is a lock. `reset()` removes it by name after only an
existence test, deleting whatever holder wrote it last; and since the module
breaks it that way, the holder's own release by name at the end of `run()`
can delete the lock of the run that started after a reset."""
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


def reset():
    if PID_FILE.exists():
        PID_FILE.unlink()
