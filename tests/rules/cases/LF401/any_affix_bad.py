"""Temp names fixed by the target with any affix, renamed onto that target."""

import json
import os
import shutil
from pathlib import Path


class Store:
    def __init__(self, path):
        self.path = path

    def save(self, data):
        new = self.path + ".new"
        with open(new, "w") as f:
            json.dump(data, f)
        os.replace(new, self.path)


def save_tilde(path, text):
    backup_style = f"{path}~"
    with open(backup_style, "w") as f:
        f.write(text)
    os.rename(backup_style, path)


def save_part(target: Path, blob: bytes) -> None:
    part = target.with_suffix(".part")
    part.write_bytes(blob)
    part.replace(target)


def save_swap(path, text):
    swap = "%s.swp" % path
    with open(swap, "w") as f:
        f.write(text)
    os.replace(swap, path)


def save_hidden(path, text):
    hidden = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    with open(hidden, "w") as f:
        f.write(text)
    os.replace(hidden, path)


def save_prefixed(directory, name, text):
    target = os.path.join(directory, name)
    staging = os.path.join(directory, "tmp_" + name)
    with open(staging, "w") as f:
        f.write(text)
    os.replace(staging, target)


def save_with_name(target: Path, text: str) -> None:
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(text)
    tmp.replace(target)


def save_parent(target: Path, text: str) -> None:
    tmp = target.parent / ("tmp_" + target.name)
    tmp.write_text(text)
    os.replace(tmp, target)


def extend(path, more):
    # a copy of the target extended, then renamed back: a temp being filled
    tmp = path + ".new"
    shutil.copyfile(path, tmp)
    with open(tmp, "a") as f:
        f.write(more)
    os.replace(tmp, path)
