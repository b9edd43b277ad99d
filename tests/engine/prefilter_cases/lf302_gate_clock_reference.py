"""LF302 gate: the clock is a reference (`clock = time.time`) called under another
name; every other `time` here is a receiver (`time.sleep`) or a plain import."""
import os
import time

clock = time.time
EXPIRE = 60


def claim(lock_file):
    time.sleep(0)
    now = clock()
    if os.path.exists(lock_file):
        with open(lock_file) as f:
            pid_text, stamp = f.read().split("|")
        if (now - float(stamp)) <= EXPIRE and int(pid_text) != os.getpid():
            return False
    with open(lock_file, "w") as f:
        f.write(f"{os.getpid()}|{now}")
    return True
