"""The recorded start_time is compared with the owner's, through a helper of
another module: pid reuse is caught here, whatever that helper is called."""
import json
import os

from .proc import started_at


def holder_alive(record_path):
    with open(record_path) as fh:
        rec = json.load(fh)
    try:
        os.kill(rec["pid"], 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return rec["start_time"] == started_at(rec["pid"])
