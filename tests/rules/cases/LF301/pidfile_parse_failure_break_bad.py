"""A daemon's pid file: created with open("x") and written afterwards. A
starter that reads it in between fails to parse the pid and deletes the
file: the live owner's pid file is gone and two daemons run."""
import os


def delete_pid(pidfile):
    try:
        os.remove(pidfile)
    except FileNotFoundError:
        pass


def read_pid(pidfile):
    pid = None
    try:
        with open(pidfile, encoding="ascii") as f:
            try:
                pid = int(f.readline().strip())
            except ValueError:
                delete_pid(pidfile)
    except FileNotFoundError:
        pass
    return pid


def create_pid(pidfile):
    try:
        with open(pidfile, "x", encoding="ascii") as f:
            f.write("%d\n" % os.getpid())
    except FileExistsError:
        return False
    return True


class Daemon:
    def __init__(self, pidfile):
        self.pidfile = pidfile

    def start(self):
        if read_pid(self.pidfile) is not None:
            return False
        return create_pid(self.pidfile)
