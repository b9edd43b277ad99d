"""LF103 gate: an exclusive create whose mode is a keyword argument spread over
lines, and an append through Path.open; the gate must let this file through."""
from pathlib import Path


def add(path, line):
    p = Path(path)
    if not p.exists():
        with open(
            path,
            mode="x",
        ) as fh:
            fh.write(line)
        return
    with p.open("a") as fh:
        fh.write(line)
