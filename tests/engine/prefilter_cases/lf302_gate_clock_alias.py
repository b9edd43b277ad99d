"""LF302 gate: the clock is read through `from time import time as wall`, so no
`time(` call is spelled; the gate must let this file through."""
import os
from time import time as wall

EXPIRE = 60


def claim(lock_file):
    now = wall()
    if os.path.exists(lock_file):
        with open(lock_file) as f:
            pid_text, stamp = f.read().split("|")
        if (now - float(stamp)) <= EXPIRE and int(pid_text) != os.getpid():
            return False
    with open(lock_file, "w") as f:
        f.write(f"{os.getpid()}|{now}")
    return True
