"""A daemon that exits when another instance holds its lock."""

import fcntl
import os
import sys


def start(pid_path):
    lock = open(pid_path + ".lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("already running", file=sys.stderr)
        sys.exit(1)
    with open(pid_path, "w") as fh:
        fh.write(str(os.getpid()))
    return lock
