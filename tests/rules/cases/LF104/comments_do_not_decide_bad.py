"""Comments and strings that read like locks or like a read-modify-write decide nothing."""
import json


def add_tag(path, tag):
    # The block below runs under the caller's lock (it does not: nothing is locked).
    # with FileLock(path + ".lock"):
    data = json.loads(path.read_text())
    data.setdefault("tags", []).append(tag)
    path.write_text(json.dumps(data))
    return "lock released"


def describe(path):
    # data = json.loads(path.read_text()); data["n"] += 1; path.write_text(json.dumps(data))
    # write_state(path, data) after read_state(path)
    return "json.loads(path.read_text()) then write_text(json.dumps(data))"
