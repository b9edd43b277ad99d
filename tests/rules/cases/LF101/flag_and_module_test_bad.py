"""A queue drained under flock, where the lock is taken only when both the
import flag and the module say fcntl is there (`if _HAS_FCNTL and _fcntl:`):
an `and` of two presence tests of one module is true exactly where fcntl
imported, so on Windows the drain reads and truncates the queue unlocked,
and an append that lands between the read and the truncate is lost."""
try:
    import fcntl as _fcntl

    _HAS_FCNTL = True
except ImportError:
    _fcntl = None
    _HAS_FCNTL = False


def drain(path):
    with open(path, "r+") as fh:
        if _HAS_FCNTL and _fcntl:
            _fcntl.flock(fh, _fcntl.LOCK_EX)
        try:
            lines = fh.readlines()
            fh.seek(0)
            fh.truncate()
        finally:
            if _HAS_FCNTL and _fcntl:
                _fcntl.flock(fh, _fcntl.LOCK_UN)
    return lines
