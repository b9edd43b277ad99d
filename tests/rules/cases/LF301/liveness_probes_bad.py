"""Stale breaks after a liveness probe other than kill(pid, 0): psutil and the
/proc entry judge the owner dead just the same, and the removal by name that
follows races a second breaker."""

import os

import psutil

LOCK = "/run/tool/worker.lock"


def take():
    fd = os.open(LOCK, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)


def break_if_dead_psutil():
    with open(LOCK) as f:
        pid = int(f.read())
    if not psutil.pid_exists(pid):
        os.unlink(LOCK)


def break_if_dead_proc():
    with open(LOCK) as f:
        pid = f.read().strip()
    if not os.path.exists(os.path.join("/proc", pid)):
        os.unlink(LOCK)
