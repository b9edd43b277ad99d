"""A lock directory retried until it is taken; other errors propagate."""

import json
import os
import time


class DirLock:
    def __init__(self, path):
        self.path = path + ".d"

    def __enter__(self):
        deadline = time.monotonic() + 30
        while True:
            try:
                os.mkdir(self.path)
                return self
            except FileExistsError:
                if time.monotonic() > deadline:
                    raise TimeoutError(self.path)
                time.sleep(0.05)

    def __exit__(self, *exc):
        os.rmdir(self.path)


def put(path, key, value):
    with DirLock(path):
        with open(path) as fh:
            data = json.load(fh)
        data[key] = value
        with open(path, "w") as fh:
            json.dump(data, fh)
