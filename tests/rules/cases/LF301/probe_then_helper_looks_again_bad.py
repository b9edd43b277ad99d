"""A stale break through a helper that looks at the lock again: is_valid()
judges the owner dead with a pid probe, then calls remove(), whose own
existence check sees whatever a faster breaker has just created. Binding
remove()'s unlink to its own look cannot stop is_valid() deleting that
successor's lock: two bugs, two findings (the helper's check-then-remove,
and the caller's break)."""
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
