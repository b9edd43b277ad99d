"""LF401 gate: renamed with the receiver spread over a line continuation. Every other `replace` here is str.replace,
which alone the gate skips: this file must still be parsed."""
import os


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(data.replace("\r\n", "\n"))
    os \
        .replace(tmp, path)
