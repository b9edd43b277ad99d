"""A data file read under a shared flock (readers keep out nothing but a
half-written file; the writer locks a sidecar and replaces the data file);
deleting the data file deletes no one's exclusion: nothing ever locks it
exclusively."""
import fcntl
import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path


def get_state_path(branch, project_dir):
    return Path(project_dir) / ".state" / (branch + ".json")


def get_lock_path(branch, project_dir):
    return get_state_path(branch, project_dir).with_suffix(".lock")


@contextmanager
def state_lock(branch, project_dir):
    with open(get_lock_path(branch, project_dir), "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def atomic_write_json(target, data):
    fd, tmp = tempfile.mkstemp(dir=str(target.parent))
    with os.fdopen(fd, "w") as f:
        json.dump(data, f)
    os.replace(tmp, target)


def load_state(branch, project_dir):
    path = get_state_path(branch, project_dir)
    if not path.exists():
        return {}
    with open(path, "r") as f:
        fcntl.flock(f, fcntl.LOCK_SH)
        try:
            return json.load(f)
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def save_state(branch, project_dir, state):
    with state_lock(branch, project_dir):
        atomic_write_json(get_state_path(branch, project_dir), state)


def delete_state(branch, project_dir):
    path = get_state_path(branch, project_dir)
    if path.exists():
        path.unlink()
