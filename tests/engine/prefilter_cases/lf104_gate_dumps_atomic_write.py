"""LF104 gate: json.dumps is a document write only where a write call takes
it; here the one call that says write is another module's atomic_write, and
the file must still be parsed."""
import json

from .storage import atomic_write


def bump(path):
    with open(path) as f:
        state = json.load(f)
    state["count"] = state.get("count", 0) + 1
    atomic_write(path, json.dumps(state))


def render(state):
    return json.dumps(state, indent=2)
