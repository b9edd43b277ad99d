"""A dot lock taken only under an OS lock, removed on the holder's release path:
the existence test guards an idempotent removal of its own lock."""
import fcntl
import os


def lock_mailbox(f):
    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        fd = os.open(f.name + ".lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        fcntl.lockf(f, fcntl.LOCK_UN)
        raise
    os.close(fd)


def unlock_mailbox(f):
    fcntl.lockf(f, fcntl.LOCK_UN)
    if os.path.exists(f.name + ".lock"):
        os.remove(f.name + ".lock")


class Box:
    def __init__(self, f):
        self.f = f

    def close(self):
        unlock_mailbox(self.f)
