"""A sweep of lock files: each pid is read from its own lock, so a reused pid
keeps that lock forever (reported for pid reuse, as one lock file would be)."""
import glob
import os

LOCK_DIR = os.path.join(os.getcwd(), ".locks")


def stale_locks():
    stale = []
    for path in glob.glob(os.path.join(LOCK_DIR, "*.lock")):
        with open(path) as f:
            pid = int(f.read())
        if not running(pid):
            stale.append(path)
    return stale


def running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
