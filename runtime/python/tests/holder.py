"""Holds a lockrt lock until stdin closes (or it is killed).

    holder.py LOCK_PATH STRATEGY    (STRATEGY: auto|oslock|lockfile)

Prints "held <pid> <token>" once the lock is held, "timeout" if it never was.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from worker import load_lockrt  # noqa: E402


def main():
    path, strategy = sys.argv[1], sys.argv[2]
    lockrt = load_lockrt(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    lock = lockrt.acquire(path, timeout=30.0, strategy=None if strategy == "auto" else strategy)
    if lock is None:
        print("timeout", flush=True)
        return 3
    print("held %d %s %s" % (os.getpid(), lock.strategy, lock.token or "-"), flush=True)
    sys.stdin.read()
    lock.release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
