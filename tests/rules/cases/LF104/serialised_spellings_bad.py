"""Read-modify-writes through other serialised spellings: pickled state, JSON
text with a trailing newline, JSON encoded to bytes."""

import json
import pickle
from pathlib import Path

ALIASES = Path.home() / ".tool" / "aliases.json"


def remember_run(state_path, run_id):
    with open(state_path, "rb") as f:
        runs = pickle.load(f)
    runs[run_id] = "started"
    with open(state_path, "wb") as f:
        pickle.dump(runs, f)


def set_alias(alias, target):
    current = json.loads(ALIASES.read_text())
    current[alias] = target
    ALIASES.write_text(json.dumps(current, indent=4) + "\n")


def bump(counter: Path):
    data = json.loads(counter.read_bytes())
    data["n"] = data.get("n", 0) + 1
    counter.write_bytes(json.dumps(data).encode("utf-8"))


def add_alias(alias, target):
    try:
        current = json.loads(ALIASES.read_text())
    except json.JSONDecodeError:
        current = {}
    current[alias] = target
    ALIASES.write_text(json.dumps(current) + "\n")
