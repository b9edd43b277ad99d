"""The waiter reads the lock's pid and probes it in a try of its own (whose
handler judges the owner dead); a pid that does not parse reaches the outer
handler, which breaks the lock as corrupt (line 34). A lock its owner has
just created and not yet written reads as empty: that break deletes a live
lock, whatever binds the removal. (The probe's own errors never reach the
outer handler.)"""
import os
import time
from pathlib import Path

LOCK = Path("/tmp/tool/saver.lock")


def acquire(timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            fd = os.open(str(LOCK), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
            return True
        except FileExistsError:
            try:
                pid = int(LOCK.read_text().strip())
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    LOCK.unlink(missing_ok=True)
                    continue
                except PermissionError:
                    pass
            except (ValueError, OSError):
                # corrupt lock file: break it
                LOCK.unlink(missing_ok=True)
                continue
            time.sleep(0.1)
    return False
