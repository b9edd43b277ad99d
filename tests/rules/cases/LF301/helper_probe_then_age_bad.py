import os
import time
from pathlib import Path


class DirLock:
    """Breaks a dead owner's lock (a pid probe in a helper) and, when the
    owner looks alive, an old one by its age: a paused live holder loses it.
    One root bug, the helper's removal by name (line 23): its finding names
    the judged calls (lines 33 and 36) instead of reporting them again."""

    def __init__(self, path: Path):
        self.lock_path = path

    def _owner_alive(self) -> bool:
        try:
            pid = int((self.lock_path / "pid").read_text())
            os.kill(pid, 0)
            return True
        except (OSError, ValueError):
            return False

    def _remove(self) -> None:
        (self.lock_path / "pid").unlink(missing_ok=True)
        self.lock_path.rmdir()

    def acquire(self) -> None:
        while True:
            try:
                self.lock_path.mkdir()
                (self.lock_path / "pid").write_text(str(os.getpid()))
                return
            except FileExistsError:
                if not self._owner_alive():
                    self._remove()
                    continue
                if time.time() - self.lock_path.stat().st_mtime > 300:
                    self._remove()
                    continue
                time.sleep(0.1)

    def release(self) -> None:
        self._remove()
