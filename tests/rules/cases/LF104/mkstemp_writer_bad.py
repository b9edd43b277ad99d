# The module's own load/save helpers over one path built by a module
# function: the saver writes a mkstemp temp through os.fdopen and moves it
# onto the path; the loader opens the path with p.open("r").
import json
import os
import tempfile
from pathlib import Path


def state_path(root=None):
    return Path(root or os.getcwd()) / ".app" / "state.json"


def read(root=None):
    p = state_path(root)
    with p.open("r", encoding="utf-8") as f:
        data = json.load(f)
    return data


def _write_atomic(data, root=None):
    p = state_path(root)
    fd, tmp = tempfile.mkstemp(dir=str(p.parent))
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f)
    os.replace(tmp, p)


def set_field(field, value, root=None):
    data = read(root)
    data[field] = value
    _write_atomic(data, root)
