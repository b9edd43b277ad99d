"""portalocker or msvcrt, else nothing: on Linux without the portalocker
package neither is there, and the helper returns as if it had locked."""

import os

try:
    import portalocker
except ImportError:
    portalocker = None
try:
    import msvcrt
except ImportError:
    msvcrt = None


def _lock(fh):
    if portalocker is not None:
        portalocker.lock(fh, portalocker.LOCK_EX)
    elif msvcrt is not None:
        msvcrt.locking(fh.fileno(), msvcrt.LK_LOCK, 1)
    else:
        pass  # neither module: carry on


def claim(owner_path):
    with open(owner_path + ".lock", "a") as fh:
        _lock(fh)
        with open(owner_path, "w") as out:
            out.write(str(os.getpid()))
