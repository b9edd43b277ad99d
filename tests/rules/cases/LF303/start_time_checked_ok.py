"""The pid's start time is compared with the one recorded: pid reuse is caught."""
import json
import os


def _start_time(pid):
    with open("/proc/%d/stat" % pid) as fh:
        return fh.read().split()[21]


def owner_alive(record_path):
    with open(record_path) as fh:
        rec = json.load(fh)
    try:
        os.kill(rec["pid"], 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return _start_time(rec["pid"]) == rec["started"]
