"""filelock is a hard dependency here: there is no unlocked path."""

import json

from filelock import FileLock


def remember(path, key, value):
    with FileLock(path + ".lock"):
        with open(path) as fh:
            memo = json.load(fh)
        memo[key] = value
        with open(path, "w") as fh:
            json.dump(memo, fh)
