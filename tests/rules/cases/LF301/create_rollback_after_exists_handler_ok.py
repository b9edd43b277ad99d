import json
import os


def try_lock(path, owner):
    """The removal rolls back this process's own create when writing the
    owner fails; a create that failed because the lock exists returns first."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        os.write(fd, json.dumps({"owner": owner}).encode())
        os.close(fd)
    except FileExistsError:
        return False
    except OSError:
        os.unlink(path)
        raise
    return True


def release(path, fd_owner):
    with open(path) as f:
        if json.load(f)["owner"] == fd_owner:
            return True
    return False
