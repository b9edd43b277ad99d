"""A pid helper judges the recorded owner dead and removes the pid file it was
handed, for two callers that hand it the lock (a field, a parameter). The bug
is the helper's removal after its probe (line 16): reported there once, not at
each call (lines 44 and 50)."""
import os


def read_pid(pidfile):
    pid = None
    try:
        with open(pidfile, encoding='ascii') as f:
            pid = int(f.readline().strip())
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                delete_pid(pidfile)
                pid = None
    except FileNotFoundError:
        pass
    return pid


def create_pid(pidfile, pid):
    try:
        with open(pidfile, 'x') as f:
            f.write('%d\n' % pid)
    except FileExistsError:
        return False
    return True


def delete_pid(pidfile):
    try:
        os.remove(pidfile)
    except FileNotFoundError:
        pass


class Daemon:
    def __init__(self, pidfile):
        self.pidfile = pidfile

    def start(self):
        if read_pid(self.pidfile) is not None:
            return False
        return create_pid(self.pidfile, os.getpid())


def main(p):
    if read_pid(p) is None:
        create_pid(p, os.getpid())
