"""Directory lock with stale reclaim and token release, both by name."""

import json
import os
import shutil
import time

LOCK_DIR = "/tmp/tool.lock"


def acquire(token):
    while True:
        try:
            os.mkdir(LOCK_DIR)
            with open(os.path.join(LOCK_DIR, "owner"), "w") as fh:
                json.dump({"pid": os.getpid(), "token": token}, fh)
            return
        except FileExistsError:
            if time.time() - os.path.getmtime(LOCK_DIR) > 30:
                shutil.rmtree(LOCK_DIR, ignore_errors=True)
            time.sleep(0.05)


def release(token):
    with open(os.path.join(LOCK_DIR, "owner")) as fh:
        if json.load(fh).get("token") == token:
            shutil.rmtree(LOCK_DIR)
