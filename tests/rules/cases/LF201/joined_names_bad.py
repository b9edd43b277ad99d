"""Names from outside joined onto a directory: the file may not exist yet."""

import os


def upload_target(upload_dir, names):
    targets = []
    for name in names:
        target = os.path.join(upload_dir, name)
        if not os.path.realpath(target).startswith(os.path.realpath(upload_dir) + os.sep):
            raise ValueError(name)
        targets.append(target)
    return targets
