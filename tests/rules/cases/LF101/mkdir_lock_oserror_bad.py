"""Index shared by hook processes, guarded by a lock directory."""

import json
import os
import sys
import time


class IndexLock:
    def __init__(self, index_path, wait=10.0):
        self.lock_dir = index_path + ".lockdir"
        self.wait = wait
        self.held = False

    def __enter__(self):
        deadline = time.monotonic() + self.wait
        while True:
            try:
                os.mkdir(self.lock_dir)
                self.held = True
                return self
            except FileExistsError:
                if time.monotonic() > deadline:
                    raise TimeoutError(self.lock_dir)
                time.sleep(0.05)
            except OSError:
                print("cannot create the lock directory; going on without it", file=sys.stderr)
                return self

    def __exit__(self, *exc):
        if self.held:
            os.rmdir(self.lock_dir)
            self.held = False


def add_entry(index_path, key, value):
    with IndexLock(index_path):
        with open(index_path) as fh:
            index = json.load(fh)
        index[key] = value
        with open(index_path, "w") as fh:
            json.dump(index, fh)
