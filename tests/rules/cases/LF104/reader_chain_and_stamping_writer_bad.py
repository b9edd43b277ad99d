"""A reader that returns what the module's own reader gives it for a path it
names from its parameter, and a writer that stamps a copy of the document
and writes it through an os.open'd temp moved into place: get_signal()
... atomic_write_json() is one read-modify-write of the signal file, and
the second read in set_signal_direct is reported once."""
import json
import os
import uuid
from pathlib import Path


def atomic_write_json(path, data, mode="session"):
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = dict(data)
    payload["_meta"] = {"mode": mode}
    tmp = path.parent / f".{path.name}.{uuid.uuid4().hex}.tmp"
    fd = os.open(str(tmp), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(payload, f)
    os.replace(tmp, path)


def read_json(path):
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return None


def signal_path(root):
    return Path(root) / ".global.json"


def get_signal(root):
    return read_json(signal_path(root)) or {}


def set_signal(root, **fields):
    current = get_signal(root)
    for k, v in fields.items():
        current[k] = v
    atomic_write_json(signal_path(root), current, mode="global")


def set_signal_direct(root, **fields):
    current = read_json(signal_path(root)) or {}
    again = get_signal(root)
    for k, v in fields.items():
        current[k] = v
    current["seen"] = again.get("seen", 0) + 1
    atomic_write_json(signal_path(root), current, mode="global")
