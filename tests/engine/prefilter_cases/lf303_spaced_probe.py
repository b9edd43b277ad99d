"""A liveness probe spelled with a space before its parenthesis: LF303's
second pattern does not pin that spelling, so neither may its prefilter."""
import json
import os


def lock_is_held(lock_path):
    with open(lock_path) as f:
        pid = json.load(f)["pid"]
    try:
        os.kill (pid, 0)
    except ProcessLookupError:
        return False
    return True
