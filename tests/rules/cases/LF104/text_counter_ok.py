"""Counters kept as text under flock, and a pid file whose new content is not
derived from the old one: no lost update."""
import fcntl
import os
from pathlib import Path

COUNTER = Path.home() / ".hook-state" / "nudges"
PIDFILE = Path.home() / ".hook-state" / "daemon.pid"


def bump_nudges() -> int:
    with open(COUNTER, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        n = int(f.read() or "0") + 1
        f.seek(0)
        f.truncate()
        f.write(str(n))
        return n


def claim_pidfile() -> None:
    old = int(PIDFILE.read_text())
    if old == os.getpid():
        return
    PIDFILE.write_text(str(os.getpid()))
