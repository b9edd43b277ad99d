"""A probe of a parameter whose callers pass a pid they did not read from a
record (a child they started, kept in memory): no pid-reuse window to report."""

import errno
import os
import subprocess


def _alive(pid):
    try:
        os.kill(pid, 0)
    except OSError as e:
        if e.errno == errno.ESRCH:
            return False
        if e.errno == errno.EPERM:
            return True
        raise
    return True


def wait_for_child(argv):
    child = subprocess.Popen(argv)
    while _alive(child.pid):
        child.poll()
    return child.returncode
