"""A data file locked with lockf while it is rewritten, then replaced by a
rename (Python's mailbox shape): the locked file is the data the lock guards,
not a lock file, so removing it is no lock removal."""

import fcntl
import os


def _lock_file(f):
    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)


class Mbox:
    def __init__(self, path):
        self._path = path
        self._file = open(path, "rb+")

    def lock(self):
        _lock_file(self._file)

    def flush(self, data):
        new_path = self._path + ".new"
        with open(new_path, "wb") as new_file:
            new_file.write(data)
        self._file.close()
        try:
            os.rename(new_path, self._path)
        except FileExistsError:
            os.remove(self._path)
            os.rename(new_path, self._path)
        self._file = open(self._path, "rb+")
        _lock_file(self._file)
