"""Paths resolved right after they were found on disk, or handed in whole:
no evidence the file may be missing, so realpath() resolves it fully."""

import glob
import os
from pathlib import Path


def plugins_inside(root):
    real_root = os.path.realpath(root)
    found = []
    for path in glob.glob(os.path.join(root, "*.py")):
        if os.path.realpath(path).startswith(real_root + os.sep):
            found.append(path)
    return found


def entries_inside(root):
    real_root = os.path.realpath(root)
    for name in sorted(os.listdir(root)):
        full = os.path.join(root, name)
        if not os.path.realpath(full).startswith(real_root + os.sep):
            raise ValueError(name)


def walk_inside(top):
    base = os.path.realpath(top)
    for dirpath, _dirs, files in os.walk(top):
        for f in files:
            if not os.path.realpath(os.path.join(dirpath, f)).startswith(base + os.sep):
                raise ValueError(f)


def children_inside(root: Path):
    for child in root.iterdir():
        if not child.resolve().is_relative_to(root.resolve()):
            raise ValueError(child)
    for entry in os.scandir(root):
        if not os.path.realpath(entry.path).startswith(os.path.realpath(root) + os.sep):
            raise ValueError(entry.name)


def tree_path(repo_path, path):
    """A path handed in whole by the caller (dulwich's path_to_tree_path)."""
    resolved = Path(path).resolve()
    return resolved.relative_to(Path(repo_path).resolve())
