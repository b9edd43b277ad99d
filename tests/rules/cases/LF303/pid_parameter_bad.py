"""The probe's pid is a parameter; the module's only caller read it from the
pidfile (twisted's PIDFile shape: the record is iterated, not .read()). A
successful probe is trusted with no start time: after a crash and pid reuse,
the service refuses to start."""

import errno
from os import kill


class StalePIDFileError(Exception):
    pass


class PIDFile:
    def __init__(self, file_path):
        self.file_path = file_path

    def read(self):
        pid_string = b""
        with self.file_path.open() as fh:
            for pid_string in fh:
                break
        return int(pid_string)

    def is_running(self):
        pid = self.read()
        return self._pid_is_running(pid)

    @staticmethod
    def _pid_is_running(pid):
        try:
            kill(pid, 0)
        except OSError as e:
            if e.errno == errno.ESRCH:
                raise StalePIDFileError("PID file refers to non-existing process")
            elif e.errno == errno.EPERM:
                return True
            raise
        return True
