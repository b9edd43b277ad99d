import errno
import os
import signal


def owner_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner_alive_errno(pid):
    try:
        os.kill(pid, 0)
    except OSError as exc:
        return exc.errno == errno.EPERM
    return True


def terminate(pid):
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        pass
