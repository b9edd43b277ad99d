"""A stop command: it signals the owner itself, then removes the pid file the
owner can no longer remove. No breaker races it: that is the owner's own
lock, ended by the one process entitled to end it."""

import os
import signal

PIDFILE = "/run/tool/daemon.pid"


def start():
    fd = os.open(PIDFILE, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)


def stop():
    with open(PIDFILE) as f:
        pid = int(f.read())
    os.kill(pid, signal.SIGTERM)
    os.unlink(PIDFILE)
