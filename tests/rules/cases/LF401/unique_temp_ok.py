"""Atomic writes through unique temp names, and renames that are not temp writes."""

import os
import tempfile
import uuid


def save_json(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)


def save_unique(path, text):
    tmp = f"{path}.{uuid.uuid4().hex}.tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)


def rotate(path):
    backup = path + ".tmp"
    os.rename(path, backup)


def strip_suffix(name):
    return name.replace(".tmp", "")
