"""A lock helper that opens the lock file and takes flock only where fcntl
imported: elsewhere it returns as if it held the lock, and its callers
update the state unlocked."""
import os
try:
    import fcntl
except ImportError:
    fcntl = None

_fd = None


def acquire(path):
    global _fd
    _fd = os.open(path, os.O_CREAT | os.O_RDWR)
    if fcntl is not None:
        fcntl.flock(_fd, fcntl.LOCK_EX)


def bump(lock_path, state_path):
    acquire(lock_path)
    n = int(open(state_path).read())
    open(state_path, 'w').write(str(n + 1))
