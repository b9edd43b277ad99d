"""A stale break through a helper that looks at the lock again: is_valid()
judges the owner dead with a pid probe, then calls remove(), whose own
existence check sees whatever a faster breaker has just created. One root
bug, one finding: the helper's check-then-remove (line 20), which names
is_valid() as a caller it is also reached from; binding that removal to
what was judged (an identity check, lockrt's release) mends both. The call
in is_valid() is not reported again (the genre corpus's labellers mark it a
duplicate, as the issue's "one finding per root bug" asks)."""
import os, subprocess


class Lockfile:
    def __init__(self, path):
        self.path = path

    def create(self):
        with open(self.path, "w") as f:
            f.write(str(os.getpid()))

    def remove(self):
        if os.path.exists(self.path):
            os.remove(self.path)

    def is_valid(self):
        with open(self.path, "r") as f:
            pid = f.read().strip()
        try:
            os.kill(int(pid), 0)
            return True
        except ProcessLookupError:
            self.remove()
            return False
