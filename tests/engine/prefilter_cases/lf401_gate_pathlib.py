"""LF401 gate: renamed with Path.replace (one argument). Every other `replace` here is str.replace,
which alone the gate skips: this file must still be parsed."""
from pathlib import Path


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(data.replace("\r\n", "\n"))
    Path(tmp).replace(path)
