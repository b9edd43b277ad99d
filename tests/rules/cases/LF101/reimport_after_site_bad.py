"""A counter module that imports os twice at module level (once at the top,
once again below the locked helper, as long files accrete). The second import
rebinds the same module and must not hide the unlocked fallback."""
import os

try:
    import fcntl
except ImportError:  # no fcntl on Windows
    fcntl = None


def add_one(counter_path):
    if fcntl is not None:
        try:
            handle = os.open(counter_path + ".guard", os.O_CREAT | os.O_RDWR, 0o644)
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                _write(counter_path, _read(counter_path) + 1)
                return
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
                os.close(handle)
        except OSError:
            pass
    _write(counter_path, _read(counter_path) + 1)


import os  # noqa: E402  (re-import; same module object)


def _read(counter_path):
    try:
        with open(counter_path) as stream:
            return int(stream.read() or 0)
    except FileNotFoundError:
        return 0


def _write(counter_path, value):
    with open(counter_path, "w") as stream:
        stream.write(str(value))
