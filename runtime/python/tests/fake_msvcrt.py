"""A simulated Windows for tests that run real processes on Linux: fcntl
cannot be imported, and an msvcrt module whose locking() is backed by POSIX
record locks (per process, so exclusion holds between processes, as
LockFile's does between handles of different processes). Imported by the
child process itself: `sys.path.insert(0, TESTS_DIR); import fake_msvcrt;
fake_msvcrt.install()`."""
import fcntl as _real_fcntl
import os
import sys
import types


def install():
    msvcrt = types.ModuleType("msvcrt")
    msvcrt.LK_UNLCK, msvcrt.LK_LOCK, msvcrt.LK_NBLCK = 0, 1, 2

    def locking(fd, mode, nbytes):
        pos = os.lseek(fd, 0, os.SEEK_CUR)
        if mode == msvcrt.LK_UNLCK:
            _real_fcntl.lockf(fd, _real_fcntl.LOCK_UN, nbytes, pos)
            return
        try:
            _real_fcntl.lockf(fd, _real_fcntl.LOCK_EX | _real_fcntl.LOCK_NB, nbytes, pos)
        except OSError:
            raise PermissionError(13, "Permission denied")

    msvcrt.locking = locking
    sys.modules["msvcrt"] = msvcrt
    sys.modules["fcntl"] = None
