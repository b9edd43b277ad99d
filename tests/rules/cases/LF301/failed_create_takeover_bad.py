import os
import time
from pathlib import Path


def take(lock_path: Path) -> None:
    deadline = time.monotonic() + 2.0
    while True:
        try:
            fd = os.open(str(lock_path), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
            return
        except FileExistsError:
            if time.monotonic() > deadline:
                lock_path.unlink(missing_ok=True)
                continue
            time.sleep(0.01)


def append(log: Path, line: str) -> None:
    lock = log.with_name(log.name + ".lock")
    take(lock)
    with log.open("a") as f:
        f.write(line)
