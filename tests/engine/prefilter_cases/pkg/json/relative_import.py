"""LF104's gate: a module of a package named json. `from . import load` is
json.load to the check, with no `json` in the code the gate reads."""
from . import load, dump


def bump(path, key):
    with open(path) as f:
        counts = load(f)
    counts[key] = counts.get(key, 0) + 1
    with open(path, "w") as f:
        dump(counts, f)
