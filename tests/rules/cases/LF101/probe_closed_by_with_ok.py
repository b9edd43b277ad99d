"""is_locked() probes the pid file's lock with LOCK_NB inside `with open(...)
as pf`: closing the file at the block's end gives the lock back, so the
function hands no lock to its caller, and the handler that answers None for
a missing file swallows no acquisition anyone relies on."""
import errno
import fcntl
import os


class PidFile:
    def __init__(self, path):
        self.path = path

    def is_locked(self):
        try:
            with open(self.path) as pf:
                try:
                    fcntl.flock(pf, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return None
                except IOError as e:
                    if e.errno in (errno.EACCES, errno.EAGAIN):
                        return int(pf.readline().strip())
                    else:
                        raise
        except IOError as e:
            if e.errno == errno.ENOENT:
                return None
            else:
                raise

    def write_pid(self):
        with open(self.path, "a+") as pf:
            fcntl.flock(pf, fcntl.LOCK_EX)
            pf.truncate(0)
            pf.write("%d\n" % os.getpid())
