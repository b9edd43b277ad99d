import os
import time

STALE_AFTER = 60.0


class PidLock:
    def __init__(self, path):
        self.lock_path = path

    def acquire(self):
        fd = os.open(self.lock_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)

    def is_stale(self):
        try:
            st = os.stat(self.lock_path)
        except FileNotFoundError:
            return False
        age = time.time() - st.st_mtime
        return (time.time() - st.st_mtime) > STALE_AFTER or age > 2 * STALE_AFTER
