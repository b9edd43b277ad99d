"""Look-alikes of a shared temp name that are not one."""

import os
import random
import shutil
import tempfile
import time
import uuid


def rename_elsewhere(path, text):
    # renamed to another final name, not onto the name it was derived from
    new = path + ".new"
    with open(new, "w") as f:
        f.write(text)
    os.replace(new, path + ".json")


def backup_only(path):
    # a backup copy, never renamed back
    shutil.copy2(path, path + ".bak")


def backup_restore(path, text):
    # the target copied aside and put back on failure: a backup, not a temp
    bak = path + ".bak"
    shutil.copy2(path, bak)
    try:
        with open(path, "w") as f:
            f.write(text)
    except OSError:
        os.replace(bak, path)
        raise


def unique_pid(path, text):
    tmp = path + "." + str(os.getpid()) + ".new"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def unique_uuid(path, text):
    tmp = os.path.join(os.path.dirname(path), "." + uuid.uuid4().hex + os.path.basename(path))
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def unique_random_time(path, text):
    tmp = f"{path}.{random.random()}.{time.time()}~"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def mkstemp_temp(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".new")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def named_temporary(path, text):
    with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(path), delete=False) as f:
        f.write(text)
    os.replace(f.name, path)


def other_dir(cache_dir, path, text):
    staging = os.path.join(cache_dir, os.path.basename(path) + ".part")
    with open(staging, "w") as f:
        f.write(text)
    os.replace(staging, path)
