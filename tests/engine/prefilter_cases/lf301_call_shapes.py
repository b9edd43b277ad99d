"""Lock removals the in-call prefilter literals must let through."""
import os
import shutil
from pathlib import Path


class Holder:
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


def cleanup(base):
    (Path(base) / "run.lock").unlink()
    os.remove(base)  # not a lock: the name is in the comment only
