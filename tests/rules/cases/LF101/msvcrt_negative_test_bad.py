"""Counter with a Windows-only lock; elsewhere nothing locks at all."""

import os
import sys

if sys.platform == "win32":
    import msvcrt
else:
    msvcrt = None


def bump(counter_path: str) -> int:
    fd = os.open(counter_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if msvcrt is None:
            # POSIX: "good enough" without a lock
            value = int(os.read(fd, 32) or b"0") + 1
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, str(value).encode())
            return value
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
        value = int(os.read(fd, 32) or b"0") + 1
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, str(value).encode())
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return value
    finally:
        os.close(fd)
