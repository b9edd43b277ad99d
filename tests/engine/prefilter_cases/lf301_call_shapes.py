"""Lock removals spelled across lines, with brackets in strings and comments:
the prefilter must let them through (each path is flocked, so each is a lock)."""
import fcntl
import os
import shutil
from pathlib import Path


class Holder:
    def acquire(self):
        fcntl.flock(open(self.lock_path, "a"), fcntl.LOCK_EX)
        fcntl.flock(open(os.path.join(self.root, ")", "state.lock"), "a"), fcntl.LOCK_EX)
        fcntl.flock(open(self.lock_file, "a"), fcntl.LOCK_EX)
        fcntl.flock(open('it\'s).lock', "a"), fcntl.LOCK_EX)

    def release(self):
        os.remove(
            self.lock_path  # ")" in a comment does not end the call
        )

    def release_dir(self):
        shutil.rmtree(os.path.join(self.root, ")", "state.lock"))

    def release_path(self):
        self.lock_file . unlink()

    def release_escaped(self):
        os.unlink('it\'s).lock')


def hold(base):
    fcntl.flock(open(Path(base) / "run.lock", "a"), fcntl.LOCK_EX)


def cleanup(base):
    (Path(base) / "run.lock").unlink()
    os.remove(base)  # not a lock: nothing locks it
