"""LF301's and LF302's gates: a mutex made with mkdir, and no word for a lock
anywhere. The exclusive create alone makes the path one."""
import os
import time


def enter(marker):
    while True:
        try:
            os.mkdir(marker)
            return
        except FileExistsError:
            if time.time() - os.path.getmtime(marker) > 30:
                os.rmdir(marker)
            time.sleep(0.1)
