# A mkstemp temp written and moved somewhere other than what was read, and a
# temp never moved: no read-modify-write of one document.
import json
import os
import tempfile

STATE = "/var/lib/app/state.json"
BACKUP = "/var/lib/app/state.bak.json"


def load():
    with open(STATE) as f:
        return json.load(f)


def save_backup(data):
    fd, tmp = tempfile.mkstemp(dir="/var/lib/app")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f)
    os.replace(tmp, BACKUP)


def dump_only(data):
    fd, tmp = tempfile.mkstemp()
    with os.fdopen(fd, "w") as f:
        json.dump(data, f)
    return tmp


def backup(k):
    data = load()
    data[k] = 1
    save_backup(data)


def scratch(k):
    data = load()
    data[k] = 1
    dump_only(data)
