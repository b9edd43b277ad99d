import sys

if sys.platform.startswith("win"):
    flock = None
else:
    from fcntl import flock, LOCK_EX, LOCK_UN


def append_event(log, line):
    with open(log + ".lock", "a") as lk:
        if flock is not None:
            flock(lk.fileno(), LOCK_EX)
            try:
                with open(log, "a") as fh:
                    fh.write(line + "\n")
            finally:
                flock(lk.fileno(), LOCK_UN)
            return
        with open(log, "a") as fh:
            fh.write(line + "\n")
