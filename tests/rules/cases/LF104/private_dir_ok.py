"""Documents under a directory the process made for itself: nobody else knows
its name, so no other process can interleave with the read-modify-write."""

import json
import os
import tempfile


def rewrite_in_scratch(entries):
    scratch = tempfile.mkdtemp(prefix="tool-")
    path = os.path.join(scratch, "state.json")
    with open(path, "w") as f:
        json.dump({}, f)
    with open(path) as f:
        state = json.load(f)
    state.update(entries)
    with open(path, "w") as f:
        json.dump(state, f)


def with_temporary_directory(key):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "cache.json")
        with open(path) as f:
            cache = json.load(f)
        cache[key] = True
        with open(path, "w") as f:
            json.dump(cache, f)


def test_counter_roundtrip(tmp_path):
    state = tmp_path / "counter.json"
    state.write_text("{}")
    data = json.loads(state.read_text())
    data["n"] = data.get("n", 0) + 1
    state.write_text(json.dumps(data))
