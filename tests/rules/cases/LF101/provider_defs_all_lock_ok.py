# One lock helper per provider, and each provider's helper takes a lock:
# flock where fcntl exists, msvcrt.locking on Windows. No branch leaves the
# caller unlocked: no LF101.
import os

try:
    import fcntl
except ImportError:
    fcntl = None
    import msvcrt

if fcntl:
    def get_lock(path):
        lock = open(path + ".lock", "w")
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        return lock

else:
    def get_lock(path):
        lock = open(path + ".lock", "w")
        msvcrt.locking(lock.fileno(), msvcrt.LK_LOCK, 1)
        return lock


def append_record(path, line):
    lock = get_lock(path)
    try:
        with open(path, "a") as f:
            f.write(line + os.linesep)
    finally:
        lock.close()
