"""LF104's gate: json imported by a string. Comments and strings are blanked
before the gate reads the text; a string "json" is a hit of its own."""
import importlib

codec = importlib.import_module("json")


def bump(path, key):
    with open(path) as f:
        counts = codec.load(f)
    counts[key] = counts.get(key, 0) + 1
    with open(path, "w") as f:
        codec.dump(counts, f)
