"""Atomic-looking writes whose temp name is fixed by the target."""

import json
import os
import shutil
from pathlib import Path


def save_json(path, obj):
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(obj, fh)
    os.rename(tmp, path)


def save_text(target: Path, text: str) -> None:
    staging = target.with_suffix(target.suffix + ".tmp")
    staging.write_text(text)
    staging.replace(target)


def save_bytes(path, blob):
    partial = "{}.temp".format(path)
    with open(partial, "wb") as fh:
        fh.write(blob)
    shutil.move(partial, path)
