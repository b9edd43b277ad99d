"""Python lock libraries under fault injection (driven by faults.py; not a test).

    py_peer.py LIB hold LOCK            acquire, print "held <pid>", wait for stdin EOF
    py_peer.py LIB try LOCK TIMEOUT [--occ MARKER]
        acquire with a timeout; print "acquired <ms>", "timeout <ms>" or
        "error <ms> <message>". With --occ, while holding: create MARKER with
        O_EXCL (failure = another live holder is inside: print "DOUBLE"), hold
        50 ms, remove it.

LIB: lockrt-oslock | lockrt-lockfile | filelock | filelock-soft | portalocker
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "runtime", "python"))


class Adapter(object):
    def __init__(self, lib, path):
        self.lib, self.path = lib, path
        self.obj = None

    def acquire(self, timeout):
        """True, False (timed out); raises on other errors."""
        lib = self.lib
        if lib.startswith("lockrt"):
            import lockrt
            self.obj = lockrt.acquire(self.path, timeout=timeout, strategy=lib.split("-")[1])
            return self.obj is not None
        if lib in ("filelock", "filelock-soft"):
            import filelock
            cls = filelock.FileLock if lib == "filelock" else filelock.SoftFileLock
            self.obj = cls(self.path, timeout=timeout)
            try:
                self.obj.acquire(poll_interval=0.01)
                return True
            except filelock.Timeout:
                return False
        if lib == "portalocker":
            import portalocker
            self.obj = portalocker.Lock(self.path, mode="a", timeout=timeout, check_interval=0.01)
            try:
                self.obj.acquire()
                return True
            except portalocker.exceptions.LockException:
                return False
        raise SystemExit("py_peer: unknown lib %s" % lib)

    def release(self):
        if self.obj is not None:
            self.obj.release()


def main():
    lib, cmd, path = sys.argv[1:4]
    adapter = Adapter(lib, path)
    start = time.monotonic()
    if cmd == "hold":
        if not adapter.acquire(60):
            print("timeout", flush=True)
            return 3
        print("held %d" % os.getpid(), flush=True)
        sys.stdin.read()
        adapter.release()
        return 0
    timeout = float(sys.argv[4])
    occ = sys.argv[sys.argv.index("--occ") + 1] if "--occ" in sys.argv else None
    try:
        got = adapter.acquire(timeout)
    except Exception as exc:  # the table reports what happened, whatever it was
        print("error %d %s: %s" % ((time.monotonic() - start) * 1000, type(exc).__name__, exc), flush=True)
        return 0
    ms = (time.monotonic() - start) * 1000
    if not got:
        print("timeout %d" % ms, flush=True)
        return 0
    double = False
    if occ:
        try:
            os.close(os.open(occ, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            double = True
        time.sleep(0.05)
        if not double:
            os.unlink(occ)
    print("acquired %d%s" % (ms, " DOUBLE" if double else ""), flush=True)
    adapter.release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
