"""LF104's gate: json's functions under other names. The gate sees `load`
and `dump` in the import; the check sees json.load and json.dump."""
from json import load as read_doc, dump as write_doc


def bump(path, key):
    with open(path) as f:
        counts = read_doc(f)
    counts[key] = counts.get(key, 0) + 1
    with open(path, "w") as f:
        write_doc(counts, f)
