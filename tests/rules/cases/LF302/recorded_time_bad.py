import os
import time
from pathlib import Path

LOCK_DIR = Path.home() / ".edit-locks"
EXPIRE = 60


def claim(file_path: str) -> bool:
    lock_file = LOCK_DIR / (file_path.replace("/", "_") + ".lock")
    now = time.time()
    if lock_file.exists():
        pid_text, stamp = lock_file.read_text().split("|")
        locked_time = float(stamp)
        if (now - locked_time) <= EXPIRE and int(pid_text) != os.getpid():
            return False
    lock_file.write_text(f"{os.getpid()}|{now}")
    return True
