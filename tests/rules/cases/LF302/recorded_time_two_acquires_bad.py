# A project lock with a sync and an async acquire. Each creates the lock
# exclusively and writes the time into it, and each breaks a lock whose
# recorded time is older than the timeout. Two functions write a time into
# the lock, but both are acquires writing their own new lock: nothing ever
# refreshes a held lock, so a holder that runs longer than the timeout loses
# it. LF302 at each comparison.
import asyncio
import os
import time


class ProjectLocks:
    def __init__(self, lock_dir):
        self.lock_dir = lock_dir

    def acquire(self, name, timeout=5):
        lock_path = os.path.join(self.lock_dir, f"{name}.lock")
        end = time.time() + timeout
        while time.time() < end:
            try:
                with open(lock_path, "x") as f:
                    f.write(str(time.time()))
                return True
            except FileExistsError:
                try:
                    with open(lock_path) as f:
                        content = f.read()
                    if content and time.time() - float(content) > timeout + 5:
                        os.remove(lock_path)
                        continue
                except (FileNotFoundError, ValueError):
                    pass
                time.sleep(0.1)
        return False

    async def acquire_async(self, name, timeout=5):
        lock_path = os.path.join(self.lock_dir, f"{name}.lock")
        end = time.time() + timeout
        while time.time() < end:
            try:
                with open(lock_path, "x") as f:
                    f.write(str(time.time()))
                return True
            except FileExistsError:
                try:
                    with open(lock_path) as f:
                        content = f.read()
                    if content and time.time() - float(content) > timeout + 5:
                        os.remove(lock_path)
                        continue
                except (FileNotFoundError, ValueError):
                    pass
                await asyncio.sleep(0.1)
        return False
