"""Python side of bench/runtime (a benchmark, not a test).

    py_bench.py uncontended --method M --lock PATH [--seconds S]
    py_bench.py uncontended-all --method M1,M2,... --lock PREFIX --seconds TOTAL
    py_bench.py contended   --method M --lock PATH --counter PATH --ops K --go PATH

uncontended prints {"method", "ns_per_op", "ops"}: mean time of one
acquire+release cycle over a time-bounded round. contended does K locked
read-modify-write increments of a decimal counter at offset 0 of the counter
file and prints {"method", "start", "end"} (CLOCK_MONOTONIC seconds, comparable
across processes). Methods:
  raw-flock        os.open + fcntl.flock(LOCK_EX) + flock(LOCK_UN) + os.close
  raw-flock-checked  raw-flock with lockrt's open flags and the two checks lockrt
                   cannot drop: os.fstat of the new descriptor, and os.lstat of the
                   name once locked (still the inode we hold?)
  raw-flock-kept   fcntl.flock(LOCK_EX) + flock(LOCK_UN) on one descriptor opened once:
                   not a lock by itself (nothing checks that the name still names
                   the locked inode), shown as the floor of a kept-descriptor cycle
  lockrt           lockrt.exclusive_lock (native backend, default strategy)
  lockrt-nokeep    same with LOCKRT_PY_KEEP_FD=0 (a fresh descriptor every acquisition)
  lockrt-c         same, OS lock taken by the C library through ctypes
  lockrt-pure      lockrt.exclusive_lock, pure-Python backend
  lockrt-lockfile  lockrt.exclusive_lock(strategy="lockfile")
  filelock         filelock.FileLock (one object, acquire/release; polls every 1 ms)
  portalocker      portalocker.Lock (one object, acquire/release; polls every 1 ms)
The lockrt variants get their backend from the environment (run.sh sets it).
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "runtime", "python"))


LOCKRT_ENV = ("LOCKRT_LIBRARY", "LOCKRT_PURE_PYTHON", "LOCKRT_PY_OSLOCK", "LOCKRT_PY_KEEP_FD")


def load_lockrt(method):
    """A fresh lockrt module configured for `method` (its backend is chosen from
    the environment at import, so each variant gets its own module object)."""
    import importlib.util
    saved = {k: os.environ.get(k) for k in LOCKRT_ENV}
    library = os.environ.get("LOCKRT_BENCH_LIBRARY") or os.environ.get("LOCKRT_LIBRARY")
    try:
        for k in LOCKRT_ENV:
            os.environ.pop(k, None)
        if method == "lockrt-pure":
            os.environ["LOCKRT_PURE_PYTHON"] = "1"
        elif library:
            os.environ["LOCKRT_LIBRARY"] = library
        if method == "lockrt-c":
            os.environ["LOCKRT_PY_OSLOCK"] = "native"
        if method == "lockrt-nokeep":
            os.environ["LOCKRT_PY_KEEP_FD"] = "0"
        spec = importlib.util.spec_from_file_location(
            "lockrt_" + method.replace("-", "_"), os.path.join(HERE, "..", "..", "runtime", "python", "lockrt.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def make_cycle(method, lock_path):
    """Returns (enter, exit) callables for one lock cycle."""
    import fcntl
    if method == "raw-flock":
        flags = os.O_RDWR | os.O_CREAT

        class Raw(object):
            fd = -1

            def __enter__(self):
                self.fd = os.open(lock_path, flags, 0o644)
                fcntl.flock(self.fd, fcntl.LOCK_EX)

            def __exit__(self, *exc):
                fcntl.flock(self.fd, fcntl.LOCK_UN)
                os.close(self.fd)
        raw = Raw()
        return lambda: raw
    if method == "raw-flock-checked":
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC

        class Checked(object):
            fd = -1

            def __enter__(self):
                fd = self.fd = os.open(lock_path, flags, 0o644)
                by_fd = os.fstat(fd)
                fcntl.flock(fd, fcntl.LOCK_EX)
                by_name = os.lstat(lock_path)
                if by_name.st_ino != by_fd.st_ino or by_name.st_dev != by_fd.st_dev:
                    sys.exit("py_bench: raw-flock-checked: the lock file was replaced")

            def __exit__(self, *exc):
                fcntl.flock(self.fd, fcntl.LOCK_UN)
                os.close(self.fd)
        checked = Checked()
        return lambda: checked
    if method == "raw-flock-kept":
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)

        class Kept(object):
            def __enter__(self):
                fcntl.flock(fd, fcntl.LOCK_EX)

            def __exit__(self, *exc):
                fcntl.flock(fd, fcntl.LOCK_UN)
        kept = Kept()
        return lambda: kept
    if method.startswith("lockrt"):
        lockrt = load_lockrt(method)
        expected = "python" if method == "lockrt-pure" else "native"
        if lockrt.BACKEND != expected:
            sys.exit("py_bench: lockrt backend is %s (%s), expected %s" % (lockrt.BACKEND, lockrt.LOAD_ERROR, expected))
        strategy = "lockfile" if method == "lockrt-lockfile" else None
        exclusive_lock = lockrt.exclusive_lock
        return lambda: exclusive_lock(lock_path, 60.0, strategy)
    if method == "filelock":
        import filelock
        lock = filelock.FileLock(lock_path, timeout=60)

        class FL(object):
            def __enter__(self):
                lock.acquire(poll_interval=0.001)  # default 50 ms

            def __exit__(self, *exc):
                lock.release()
        fl = FL()
        return lambda: fl
    if method == "portalocker":
        import portalocker
        # Its default mode (LOCK_EX|LOCK_NB, polled), polled every 1 ms like lockrt's
        # first backoff step instead of its default 250 ms.
        lock = portalocker.Lock(lock_path, mode="a", timeout=60, check_interval=0.001)

        class PL(object):
            def __enter__(self):
                lock.acquire()

            def __exit__(self, *exc):
                lock.release()
        pl = PL()
        return lambda: pl
    sys.exit("py_bench: unknown method %s" % method)


def uncontended(args):
    cycle = make_cycle(args.method, args.lock)
    for _ in range(200):  # warm up (imports, first create)
        with cycle():
            pass
    ops = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while True:
        for _ in range(100):
            with cycle():
                pass
        ops += 100
        now = time.perf_counter()
        if now >= deadline:
            break
    print(json.dumps({"method": args.method, "ns_per_op": (now - start) / ops * 1e9, "ops": ops}))


def uncontended_all(args):
    """Every method in this one process, in short alternating batches for
    args.seconds in total; the fastest batch of each counts. Short interleaved
    batches make load spikes on a shared machine hit every method alike."""
    methods = args.method.split(",")
    cycles = {m: make_cycle(m, "%s-%s" % (args.lock, m)) for m in methods}
    for cycle in cycles.values():
        for _ in range(200):
            with cycle():
                pass
    best = {m: float("inf") for m in methods}
    batch = 200
    deadline = time.perf_counter() + args.seconds
    while time.perf_counter() < deadline:
        for m in methods:
            cycle = cycles[m]
            t0 = time.perf_counter()
            for _ in range(batch):
                with cycle():
                    pass
            best[m] = min(best[m], (time.perf_counter() - t0) / batch * 1e9)
    print(json.dumps({"ns_per_op": best}))


def contended(args):
    cycle = make_cycle(args.method, args.lock)
    fd = os.open(args.counter, os.O_RDWR)
    while not os.path.exists(args.go):
        time.sleep(0.0005)
    start = time.monotonic()
    for _ in range(args.ops):
        with cycle():
            value = int(os.pread(fd, 32, 0) or b"0")
            os.pwrite(fd, b"%020d" % (value + 1), 0)
    end = time.monotonic()
    os.close(fd)
    print(json.dumps({"method": args.method, "start": start, "end": end}))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("uncontended", "uncontended-all", "contended"))
    ap.add_argument("--method", required=True)
    ap.add_argument("--lock", required=True)
    ap.add_argument("--seconds", type=float, default=0.3)
    ap.add_argument("--counter")
    ap.add_argument("--ops", type=int, default=500)
    ap.add_argument("--go")
    args = ap.parse_args()
    {"uncontended": uncontended, "uncontended-all": uncontended_all, "contended": contended}[args.mode](args)


if __name__ == "__main__":
    main()
