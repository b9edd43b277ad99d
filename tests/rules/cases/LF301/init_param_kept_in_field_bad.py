"""The constructor keeps the lock path in a field and hands the parameter
itself to the lock class. The file the class flocks is the file the field
names: removing it by name after unlocking it lets a process that was waiting
on the old inode and a newcomer that creates a fresh one both hold "the"
lock."""

import os

import portalocker


class CacheLock:
    def __init__(self, lock_path):
        self._path = lock_path
        self._lock = portalocker.Lock(lock_path, mode="a", flags=portalocker.LOCK_EX)

    def __enter__(self):
        return self._lock.__enter__()

    def __exit__(self, *exc):
        self._lock.__exit__(*exc)
        try:
            os.remove(self._path)
        except FileNotFoundError:
            pass
