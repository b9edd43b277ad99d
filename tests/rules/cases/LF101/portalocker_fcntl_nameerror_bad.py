"""Audit trail appended by every worker."""

try:
    import portalocker
    LOCKER = "portalocker"
except ImportError:
    import fcntl
    LOCKER = "fcntl"


def append_event(log_path, line):
    with open(log_path, "a") as fh:
        try:
            fcntl.lockf(fh, fcntl.LOCK_EX)
        except Exception:
            pass
        fh.write(line + "\n")
        fh.flush()
