"""LF401 gate: renamed through `from os import rename as move_into_place`. Every other `replace` here is str.replace,
which alone the gate skips: this file must still be parsed."""
from os import rename as move_into_place


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(data.replace("\r\n", "\n"))
    move_into_place(tmp, path)
