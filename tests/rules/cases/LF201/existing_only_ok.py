"""realpath only of things that exist: the directory, or a target known to exist."""

import os
from pathlib import Path


def state_dir(base):
    os.makedirs(base, exist_ok=True)
    return os.path.realpath(base)


def checked(state_dir_path, name):
    path = os.path.join(state_dir_path, name)
    if os.path.lexists(path) and not os.path.realpath(path).startswith(os.path.realpath(state_dir_path) + os.sep):
        raise ValueError(name)
    return path


def same_file(a, b):
    return os.path.realpath(a) == os.path.realpath(b)


def under_root(root: Path, name: str) -> Path:
    p = root / name
    if p.exists():
        if not p.resolve().is_relative_to(root.resolve()):
            raise ValueError(name)
    return p
