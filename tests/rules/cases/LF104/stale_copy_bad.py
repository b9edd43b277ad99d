"""Two writers of one document: add_invocation makes a derived change, while
set_stage stores a fixed key over the whole copy it read. set_stage alone would
be serialisable; beside add_invocation, its stale copy erases an invocation
added in between. The saver writes a temp and moves it onto the document."""

import json
from pathlib import Path


def read(root):
    return json.loads((Path(root) / "stage.json").read_text())


def _write(root, state):
    path = Path(root) / "stage.json"
    tmp = path.with_suffix(".json.%d" % id(state))
    tmp.write_text(json.dumps(state))
    tmp.replace(path)


def set_stage(root, stage):
    state = read(root)
    state["stage"] = stage
    _write(root, state)


def add_invocation(root, invocation):
    state = read(root)
    state["active"].append(invocation)
    _write(root, state)
