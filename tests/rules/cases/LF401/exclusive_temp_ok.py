"""A temp created exclusively (open "x", O_EXCL): a second writer fails with
FileExistsError instead of sharing the file; the name is taken, not shared."""
import os, json


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "x") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def save2(path, data):
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)
