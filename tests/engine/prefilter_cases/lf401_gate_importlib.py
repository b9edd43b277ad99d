"""LF401 gate: renamed through a module loaded by name. Every other `replace` here is str.replace,
which alone the gate skips: this file must still be parsed."""
import importlib

system = importlib.import_module("os")


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(data.replace("\r\n", "\n"))
    system.replace(tmp, path)
