"""Lost-update worker: ITERS read-modify-write increments of KEY in the JSON
counter file under the lock (or none, for the control).

    worker.py --file F --lock L --key K --iters M --strategy oslock|lockfile|none
              [--go PATH] [--hold-us U] [--expect-backend native|python] [--lockrt-dir DIR]

LOCKRT_PURE_PYTHON=1 in the environment selects the pure-Python backend.
Exit codes: 0 done, 3 the lock was not acquired in time, 4 wrong backend.
"""
import argparse
import importlib.util
import json
import os
import sys
import time


def load_lockrt(directory):
    spec = importlib.util.spec_from_file_location("lockrt", os.path.join(directory, "lockrt.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_counts(path):
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        return {}
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except ValueError:
        return {}  # never expected: writes are atomic renames


def write_counts(path, counts):
    # Unique temp + rename (like the C harness's write_atomic, without fsync): an
    # unlocked run loses updates to stale reads, never to torn files.
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w") as fh:
        json.dump(counts, fh)
    os.replace(tmp, path)


def increment(path, key, hold_us=0):
    counts = read_counts(path)
    counts[key] = counts.get(key, 0) + 1
    if hold_us:
        time.sleep(hold_us / 1e6)  # widen the read-modify-write window
    write_counts(path, counts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", required=True)
    ap.add_argument("--lock", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--iters", type=int, required=True)
    ap.add_argument("--strategy", choices=("oslock", "lockfile", "none"), required=True)
    ap.add_argument("--go")
    ap.add_argument("--hold-us", type=int, default=0)
    ap.add_argument("--expect-backend", choices=("native", "python"))
    ap.add_argument("--lockrt-dir", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = ap.parse_args()

    lockrt = load_lockrt(args.lockrt_dir)
    if args.expect_backend and lockrt.BACKEND != args.expect_backend:
        sys.stderr.write("worker: backend is %s (%s), expected %s\n"
                         % (lockrt.BACKEND, lockrt.LOAD_ERROR, args.expect_backend))
        return 4
    if args.go:
        # Start barrier: say we are ready, then wait for everyone's go, so the
        # processes really overlap (interpreter start-up can take longer than
        # a whole run of increments on a loaded machine).
        with open("%s.ready.%s" % (args.go, args.key), "w"):
            pass
        while not os.path.exists(args.go):
            time.sleep(0.001)
    strategy = None if lockrt.BACKEND == "python" else args.strategy
    for _ in range(args.iters):
        if args.strategy == "none":
            increment(args.file, args.key, args.hold_us)
            continue
        with lockrt.exclusive_lock(args.lock, timeout=120.0, strategy=strategy) as acquired:
            if not acquired:
                sys.stderr.write("worker %s: lock not acquired in time\n" % args.key)
                return 3
            increment(args.file, args.key, args.hold_us)
    return 0


if __name__ == "__main__":
    sys.exit(main())
