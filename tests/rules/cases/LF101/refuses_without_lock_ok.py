"""Conditional import, but the unlocked path refuses instead of proceeding."""

import sys

if sys.platform != "win32":
    import fcntl
else:
    fcntl = None


def bump(path, read_state, write_state):
    if fcntl is None:
        raise RuntimeError("no file locking on this platform")
    with open(path + ".lock", "a") as lk:
        fcntl.flock(lk.fileno(), fcntl.LOCK_EX)
        state = read_state(path)
        state["n"] = state.get("n", 0) + 1
        write_state(path, state)


def status():
    if fcntl is not None:
        return "locking available"
    return "no locking"
