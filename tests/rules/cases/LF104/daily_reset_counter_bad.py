"""A hook's daily counter: read, reset when the day changed, bumped, written
back. The reset binds the name anew only on some runs; on the others the
value read goes on to the write, and two hooks that run at once each add one
to the same old count: one increment is lost."""

import json
import time
from pathlib import Path

COUNTS = Path.home() / ".cache" / "promptguard" / "counts.json"


def bump(kind):
    day = time.strftime("%Y-%m-%d")
    try:
        counts = json.loads(COUNTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        counts = {"day": day}
    if counts.get("day") != day:
        counts = {"day": day}
    counts[kind] = counts.get(kind, 0) + 1
    COUNTS.parent.mkdir(parents=True, exist_ok=True)
    COUNTS.write_text(json.dumps(counts), encoding="utf-8")
    return counts[kind]
