"""LF401 gate: renamed through `publish = os.replace`. Every other `replace` here is str.replace,
which alone the gate skips: this file must still be parsed."""
import os

publish = os.replace


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(data.replace("\r\n", "\n"))
    publish(tmp, path)
