"""A registry of worker processes, counted by probing each pid: a reused pid
keeps a dead entry listed, it holds no lock (the pid is one element of a
list, not the owner a lock records). EPERM is read as alive."""
import json
import os
import time

REGISTRY = os.path.join(os.getcwd(), ".cache", "workers.json")


def running(entry):
    pid = entry.get("pid")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def count_alive():
    try:
        with open(REGISTRY) as f:
            entries = json.load(f)
    except (OSError, ValueError):
        return
    alive = [entry for entry in entries if running(entry)]
    return len(alive), time.time()
