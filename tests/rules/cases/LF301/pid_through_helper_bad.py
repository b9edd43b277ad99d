import os
import time


class Pidfile:
    """A pid lock whose pid is written through a helper's parameter."""

    def __init__(self, filename):
        self.filename = filename

    def __del__(self):
        self.remove()

    def _read(self):
        with open(self.filename) as f:
            return f.read()

    def _write(self, pid):
        if os.path.exists(self.filename):
            raise RuntimeError("already running")
        with open(self.filename, "w") as f:
            f.write(f"{pid}")

    def create(self):
        self._write(pid=os.getpid())

    def remove(self):
        if os.path.exists(self.filename):
            os.remove(self.filename)

    def wait_for_stale(self):
        while os.path.exists(self.filename):
            stale = self._read()
            if not os.path.exists(os.path.join("/proc", stale)):
                self.remove()
                break
            time.sleep(1)
