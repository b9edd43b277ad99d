"""The same guard over files replaced through a temp, in a module that imports
fcntl unconditionally: it cannot even be imported on Windows, the only
platform where realpath() of a file mid-replace comes back unresolved."""

import fcntl
import os


def store_uploads(upload_dir, files):
    for name, data in files.items():
        target = os.path.join(upload_dir, name)
        if not os.path.realpath(target).startswith(os.path.realpath(upload_dir) + os.sep):
            raise ValueError(name)
        part = "%s.%d.part" % (target, os.getpid())
        with open(part, "wb") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            f.write(data)
        os.replace(part, target)
