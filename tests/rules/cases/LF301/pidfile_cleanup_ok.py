"""A daemon announces its pid for an operator and removes the file when it
ends; the only look at the file is the existence test guarding that removal.
Nothing decides whether to run by it, so it is no lock and its removal by
name takes nothing from anyone."""
import os
from pathlib import Path

PID_FILE = Path.home() / ".indexer" / "indexer.pid"


def run(jobs):
    PID_FILE.write_text(str(os.getpid()))
    for job in jobs:
        job()
    if PID_FILE.exists():
        PID_FILE.unlink(missing_ok=True)
