# The module defines its lock helpers once per provider: with fcntl, an
# flock on a lock file; without it (Windows), get_lock() returns None and
# release_lock() does nothing. Every caller's critical section (here the
# copy into the shared cache) then runs unlocked there. LF101 at the test
# of the module whose branch takes the lock.
import os
import shutil

try:
    import fcntl
except ImportError:
    fcntl = None

if fcntl:
    def get_lock(cache_dir, name):
        lock = open(os.path.join(cache_dir, name + ".lock"), "w")
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        return lock

    def release_lock(lock):
        fcntl.flock(lock.fileno(), fcntl.LOCK_UN)
        lock.close()

else:
    def get_lock(cache_dir, name):
        return None

    def release_lock(lock):
        pass


def copy_to_cache(src, cache_dir, name):
    lock = get_lock(cache_dir, name)
    try:
        dest = os.path.join(cache_dir, name)
        if not os.path.exists(dest):
            shutil.copytree(src, dest)
    finally:
        release_lock(lock)
