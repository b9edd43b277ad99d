"""The previous record is read only to log it; the record written is always a
new one, built from this run alone. Whatever another process wrote in
between, this write does not carry a stale copy of it: no update is lost."""

import json
from pathlib import Path

LAST_RUN = Path.home() / ".cache" / "nightly" / "last_run.json"


def record_run(status):
    try:
        previous = json.loads(LAST_RUN.read_text())
    except (OSError, ValueError):
        previous = None
    print("previous run:", previous)
    previous = {"status": status}
    LAST_RUN.write_text(json.dumps(previous))
