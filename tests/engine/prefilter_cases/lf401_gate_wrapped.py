"""LF401 gate: renamed with the call wrapped in brackets over lines, a comment between. Every other `replace` here is str.replace,
which alone the gate skips: this file must still be parsed."""
import os


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(data.replace("\r\n", "\n"))
    (os  # the module
     .replace)(tmp, path)
