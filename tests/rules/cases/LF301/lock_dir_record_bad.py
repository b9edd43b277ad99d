"""A mkdir lock with its owner's pid in a record inside: emptying the directory
is one step of removing the lock, so the record's unlink is no finding of its
own. One bug remains, reported once at the helper's removal (line 31): the
release by name that the stale break by age (line 24, through the helper)
makes a takeover, deleting a successor's lock once a paused holder was broken;
the finding names the break and every call of the helper."""

import os
import time
from pathlib import Path


class DirLock:
    def __init__(self, path):
        self.lock_path = Path(path)

    def acquire(self):
        while True:
            try:
                self.lock_path.mkdir()
                (self.lock_path / "pid").write_text(str(os.getpid()))
                return
            except FileExistsError:
                if time.time() - self.lock_path.stat().st_mtime > 60:
                    self._remove()
                time.sleep(0.1)

    def _remove(self):
        record = self.lock_path / "pid"
        if record.exists():
            record.unlink()
        self.lock_path.rmdir()

    def release(self):
        self._remove()
