"""The same create used as a lock: when the name is taken, the handler looks
at the holder's age and breaks the lock by name, then tries the same name
again. A holder that was only slow loses its lock."""
import os
import time

LOCK = "/var/tmp/tool.lock"


def acquire():
    while True:
        try:
            fd = os.open(LOCK, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            os.close(fd)
            return
        except FileExistsError:
            if time.time() - os.path.getmtime(LOCK) > 60:
                os.unlink(LOCK)
            time.sleep(0.1)
