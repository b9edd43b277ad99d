"""Names from outside joined onto a directory, each file then replaced through
a temp: while another process renames its temp onto one of them, the file is
momentarily absent (Windows), and realpath() returns it unresolved."""

import os


def store_uploads(upload_dir, files):
    for name, data in files.items():
        target = os.path.join(upload_dir, name)
        if not os.path.realpath(target).startswith(os.path.realpath(upload_dir) + os.sep):
            raise ValueError(name)
        part = "%s.%d.part" % (target, os.getpid())
        with open(part, "wb") as f:
            f.write(data)
        os.replace(part, target)
