"""The code after the locked branch only cleans up and refuses: no unlocked copy."""

import logging
import os
import sys

if sys.platform != "win32":
    import fcntl
else:
    fcntl = None

log = logging.getLogger(__name__)


def bump(path, read_state, write_state):
    fd = os.open(path + ".lock", os.O_CREAT | os.O_RDWR, 0o600)
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        log.debug("locked %s", path)
        state = read_state(path)
        state["n"] = state.get("n", 0) + 1
        write_state(path, state)
        os.close(fd)
        return state["n"]
    log.debug("locked %s", path)
    os.close(fd)
    raise RuntimeError("file locking is unavailable here")


def bump_or_skip(path, read_state, write_state):
    fd = os.open(path + ".lock", os.O_CREAT | os.O_RDWR, 0o600)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
            state = read_state(path)
            write_state(path, state)
            return True
        log.warning("no lock, skipping %s", path)
        return False
    finally:
        os.close(fd)
