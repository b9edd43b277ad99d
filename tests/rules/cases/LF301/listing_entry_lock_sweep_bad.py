"""A sweep over a directory's entries, each holding a lock file the module's
claim function writes under another spelling (`_lock_path(issue)`): it reads
each record, judges it (pid probe, heartbeat age) and unlinks it by name. Two
sweepers, or a sweeper and a claimant, race: the slower deletes the lock the
other has just written."""
import json
import os
import time
from pathlib import Path

ROOT = Path("/tmp/state/.issues")


def _lock_path(issue):
    return ROOT / issue / "lock"


def claim(issue):
    path = _lock_path(issue)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"pid": os.getpid(), "heartbeat": int(time.time())}))


def _alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def sweep(ttl=1800):
    now = time.time()
    for d in ROOT.iterdir():
        lock = d / "lock"
        if not lock.exists():
            continue
        data = json.loads(lock.read_text())
        if not (_alive(data.get("pid", 0)) and now - data.get("heartbeat", 0) < ttl):
            lock.unlink()
