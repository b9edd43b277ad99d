"""A temp named after its target and flocked while it is written: the flock
on the temp excludes no one (another writer's open(..., "w") truncates it
regardless, and a writer waiting on it locks the inode after it has been
renamed into place), so concurrent writers still share it. A lock on a
separate lock file, taken around the write and the rename, does exclude."""
import fcntl
import json
import os
from pathlib import Path


def save_metrics(path: Path, metrics) -> None:
    temp = path.with_suffix(".tmp")
    with open(temp, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            json.dump(metrics, fh)
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
    temp.rename(path)


def save_registry(path: Path, registry) -> None:
    with open(str(path) + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        temp = path.with_suffix(".tmp")
        with open(temp, "w") as fh:
            json.dump(registry, fh)
        os.replace(temp, path)
