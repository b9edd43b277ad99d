"""Fixed `.tmp` names that are not a shared temp of an unlocked atomic write."""

import os
import shutil
import subprocess
import fasteners
from pathlib import Path


def install_without_manifest(project: Path) -> None:
    """The manifest is moved aside around a tool run and moved back: the
    `.tmp` name holds the existing file, nothing is written to it."""
    manifest = project / "pyproject.toml"
    shutil.move(str(manifest), str(manifest.with_suffix(".tmp")))
    try:
        subprocess.run(["pip", "install", "-e", str(project)], check=True)
    finally:
        shutil.move(str(manifest.with_suffix(".tmp")), str(manifest))


class Repository:
    """Opened under an exclusive lock taken in open() and released in close():
    every write in between is the lock holder's."""

    def __init__(self, path):
        self.path = path
        self.lock = None

    def open(self):
        self.lock = RepoLock(os.path.join(self.path, "lock")).acquire()

    def close(self):
        self.lock.release()
        self.lock = None

    def write_index(self, data):
        def rename_tmp(name):
            os.replace(name + ".tmp", name)

        index = os.path.join(self.path, "index")
        with open(index + ".tmp", "wb") as fh:
            fh.write(data)
        rename_tmp(index)


_GUARD = fasteners.InterProcessLock("/var/lock/store.lock")


def _store(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)


def store(path, text):
    with _GUARD:
        _store(path, text)


class RepoLock:
    def __init__(self, path):
        self.path = path

    def acquire(self):
        os.mkdir(self.path)
        return self

    def release(self):
        os.rmdir(self.path)
