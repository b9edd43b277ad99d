"""EPERM handled correctly, but the pid comes from a pid file and no start time is
compared: reported for pid reuse only. Comments naming start_time, st_ino or
psutil do not count as a start-time check."""
import errno
import os


def running_owner(pidfile):
    with open(pidfile) as fh:
        pid = int(fh.read())
    # compare the start_time here one day (psutil.Process(pid).create_time())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return pid  # alive, another user's
    return pid


def still_alive(pidfile):
    pid = int(open(pidfile).read())
    try:
        os.kill(pid, 0)
    except OSError as exc:
        if exc.errno == errno.EPERM:
            return True
        return False
    return True
