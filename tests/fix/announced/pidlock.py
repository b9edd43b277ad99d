"""A pid lock whose liveness probe reads EPERM as dead and trusts a reused pid."""
import os

LOCK = "/var/run/sync-worker.pid"


def owner_alive():
    try:
        with open(LOCK) as f:
            pid = int(f.read().strip())
    except (OSError, ValueError):
        return False
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def take():
    if owner_alive():
        raise SystemExit("another sync-worker is running")
    with open(LOCK, "w") as f:
        f.write(str(os.getpid()))
