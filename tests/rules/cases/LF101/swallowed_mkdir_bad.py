"""A lock directory whose creation failure is ignored: the work runs anyway."""

import os


def append_line(log_path, line):
    lock_dir = log_path + ".d"
    try:
        os.mkdir(lock_dir)
    except FileExistsError:
        pass  # someone else is writing; go ahead regardless
    try:
        with open(log_path) as fh:
            lines = fh.read().splitlines()
        lines.append(line)
        with open(log_path, "w") as fh:
            fh.write("\n".join(lines) + "\n")
    finally:
        try:
            os.rmdir(lock_dir)
        except OSError:
            pass
