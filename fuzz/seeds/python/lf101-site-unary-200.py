import json
try:
    import fcntl
except ImportError:
    fcntl = None


def bump(path):
    with open(path, 'a+') as fh:
        if fcntl is not None:
            fcntl.flock(fh, fcntl.LOCK_EX)
            fh.seek(0)
            n = int(fh.read() or 0)
            fh.truncate(0)
            fh.write(str(n + 1))
            fcntl.flock(fh, fcntl.LOCK_UN)
        else:
            fh.seek(0)
            n = int(fh.read() or 0)
            fh.truncate(0)
            fh.write(str(n + 1))
X = --------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------1
