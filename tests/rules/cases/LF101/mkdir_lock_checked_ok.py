"""A lock directory taken for real: a failure to create it stops the work."""

import os
import time


def append_line(log_path, line):
    lock_dir = log_path + ".d"
    while True:
        try:
            os.mkdir(lock_dir)
            break
        except FileExistsError:
            time.sleep(0.01)
    try:
        with open(log_path, "a") as fh:
            fh.write(line + "\n")
    finally:
        os.rmdir(lock_dir)
