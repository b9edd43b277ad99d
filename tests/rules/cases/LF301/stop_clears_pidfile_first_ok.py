"""A stop command that clears the pid file first and then signals the pid it
read from it: the owner is being ended by the one command entitled to end
it, whichever of the two steps comes first. The start refuses while the
record names a live process, and takes the file exclusively."""

import os
import signal

PIDFILE = os.path.expanduser("~/.cache/syncd/syncd.pid")


def start():
    fd = os.open(PIDFILE, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    with os.fdopen(fd, "w") as out:
        out.write(str(os.getpid()))


def stop():
    try:
        with open(PIDFILE) as f:
            pid = int(f.read().strip())
    except (OSError, ValueError):
        pid = None
    if os.path.exists(PIDFILE):
        os.remove(PIDFILE)
    if pid:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
