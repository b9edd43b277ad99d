"""Session table guarded by a helper that gives up quietly without fcntl."""

import json
import time

try:
    import fcntl
    LOCKS_AVAILABLE = True
except ImportError:
    LOCKS_AVAILABLE = False


def _take_lock(fh, exclusive=True, wait=10.0):
    """True once locked; False where this platform has no locks."""
    if not LOCKS_AVAILABLE:
        return False
    mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fh.fileno(), mode | fcntl.LOCK_NB)
            return True
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError("session table is busy")
            time.sleep(0.02)


def add_session(table_path, sid, info):
    with open(table_path, "r+") as fh:
        _take_lock(fh)
        table = json.loads(fh.read() or "{}")
        table[sid] = info
        fh.seek(0)
        fh.truncate()
        fh.write(json.dumps(table))
