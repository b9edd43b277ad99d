"""LF401 gate: a rename with its destination by keyword (`target=`). Every other
`replace` here takes one keyword that names no destination (datetime.replace,
dataclasses' replace on a method), which alone the gate skips: this file must
still be parsed."""
import datetime
from pathlib import Path


def stamp(when):
    return when.replace(tzinfo=datetime.timezone.utc).replace(microsecond=0)


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(data)
    Path(tmp).replace(target=path)
