"""Look-alike of a move aside: what is moved to the `.tmp` name first is a
different file, so the name is still the shared temp a write fills."""

import os
import shutil


def promote(draft, target):
    shutil.move(draft, target + ".tmp")
    with open(target + ".tmp", "a") as fh:
        fh.write("\n")
    shutil.move(target + ".tmp", target)


def rotate(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
