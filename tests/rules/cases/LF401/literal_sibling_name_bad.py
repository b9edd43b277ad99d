"""The temp is a literal name next to the target's own literal name in the
same directory: every writer of state.json writes state.json.tmp, so two
writers truncate each other's temp and one replace publishes the other's
half-written document (or fails on a temp already moved away)."""
import json
import os
from pathlib import Path

STATE_DIR = Path.home() / ".cache" / "example-hook"


def save_state(state):
    tmp = STATE_DIR / "state.json.tmp"
    tmp.write_text(json.dumps(state))
    tmp.replace(STATE_DIR / "state.json")


def save_index(index):
    tmp = os.path.join(str(STATE_DIR), "index.json.new")
    with open(tmp, "w") as f:
        json.dump(index, f)
    os.replace(tmp, os.path.join(str(STATE_DIR), "index.json"))
