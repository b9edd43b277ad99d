import fcntl
import os


def bump(path, read_state, write_state):
    fd = os.open(path + ".lock", os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        state = read_state(path)
        state["n"] = state.get("n", 0) + 1
        write_state(path, state)
    except OSError:
        raise
    finally:
        os.close(fd)
