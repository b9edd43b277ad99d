"""Lock availability kept in a flag beside the import."""

import os

try:
    import fcntl

    HAVE_FCNTL = True
except ImportError:
    HAVE_FCNTL = False


def bump(path: str, read_state, write_state) -> int:
    if HAVE_FCNTL:
        with open(path + ".lock", "a") as lock_file:
            fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX)
            state = read_state(path)
            state["n"] = state.get("n", 0) + 1
            write_state(path, state)
            return state["n"]
    # no fcntl: best effort
    state = read_state(path)
    state["n"] = state.get("n", 0) + 1
    write_state(path, state)
    return state["n"]


def describe() -> str:
    return "locking" if HAVE_FCNTL else "no locking"
