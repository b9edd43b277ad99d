"""A lock class whose flock operation is kept in a field (`self.mode = mode |
fcntl.LOCK_EX`): it is an exclusive lock whatever the caller adds. Its
acquire() swallows ENOLCK (no lock daemon on an NFS mount) and returns as if
it held the lock, so every `with` of it runs its body unlocked there."""
import errno
import fcntl


class FileLock:
    def __init__(self, fileobj, mode=0):
        self.fileobj = fileobj
        self.mode = mode | fcntl.LOCK_EX
        self.locked = False

    def acquire(self):
        try:
            fcntl.flock(self.fileobj, self.mode)
            self.locked = True
        except OSError as exc:
            if exc.errno != errno.ENOLCK:
                raise

    def release(self):
        self.locked = False
        fcntl.flock(self.fileobj, fcntl.LOCK_UN)

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc):
        if self.locked:
            self.release()
        return False
