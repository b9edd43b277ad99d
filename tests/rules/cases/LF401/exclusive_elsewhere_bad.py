"""Created exclusively first, then written plainly when it exists: the
fallback shares the temp with every other writer that got there first."""
import json
import os


def save(path, data):
    tmp = path + ".tmp"
    try:
        with open(tmp, "x") as f:
            json.dump(data, f)
    except FileExistsError:
        with open(tmp, "w") as f:
            json.dump(data, f)
    os.replace(tmp, path)



def save_fresh(path, data):
    # A stale temp is removed by name before the exclusive create: the removal
    # takes away another writer's live temp, whose rename then publishes ours.
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)
