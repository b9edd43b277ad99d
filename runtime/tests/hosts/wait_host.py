"""The OS lock's bounded wait inside a Python host (ctypes, no binding code):
Python's own signal handlers and lockrt's wake-up timer side by side.

    wait_host.py LIBRARY

Python installs its handlers without SA_RESTART, so a signal for one of them
interrupts the blocking flock() in the C wait; the wait must go on to its
deadline (or to the release) and the Python handler must still run once the
call returns. A SIGURG handler installed from Python is the host's: lockrt
must leave it in place, never signal it, and still honour the bound.
Time bounds below are hang guards, not speed checks.
"""
import ctypes
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

OK, ETIMEDOUT, OSLOCK = 0, -1, 1
HANG_GUARD = 20.0


class Options(ctypes.Structure):
    # The leading fields of lockrt_options; the padding covers any later ones.
    _fields_ = [("strategy", ctypes.c_int), ("timeout_ms", ctypes.c_int64),
                ("poll_min_ms", ctypes.c_uint32), ("poll_max_ms", ctypes.c_uint32),
                ("_rest", ctypes.c_char * 64)]


lib = ctypes.CDLL(sys.argv[1])
lib.lockrt_acquire.argtypes = [ctypes.c_char_p, ctypes.POINTER(Options), ctypes.POINTER(ctypes.c_void_p)]
lib.lockrt_release.argtypes = [ctypes.c_void_p]


def acquire(path, timeout_ms):
    opts = Options()
    lib.lockrt_options_init(ctypes.byref(opts))
    opts.strategy = OSLOCK
    opts.timeout_ms = timeout_ms
    out = ctypes.c_void_p()
    t0 = time.monotonic()
    rc = lib.lockrt_acquire(path.encode(), ctypes.byref(opts), ctypes.byref(out))
    return rc, out, time.monotonic() - t0


def hold(path):
    """A process holding the lock with fcntl.flock, as unpatched code does;
    it lets go when its stdin closes."""
    code = ("import fcntl, os, sys\n"
            "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "print('held', flush=True)\n"
            "sys.stdin.read()\n")
    p = subprocess.Popen([sys.executable, "-c", code, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert p.stdout.readline() == b"held\n"
    return p


def let_go(p):
    p.stdin.close()
    assert p.wait(timeout=HANG_GUARD) == 0


class Pester(object):
    """Sends `sig` to the main thread every millisecond (thread-directed, so it
    lands on the thread that waits in C)."""

    def __init__(self, sig):
        self.sig, self.stop, self.main = sig, threading.Event(), threading.main_thread().ident
        self.thread = threading.Thread(target=self.run)

    def run(self):
        while not self.stop.wait(0.001):
            signal.pthread_kill(self.main, self.sig)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def sigurg_caught():
    """Linux: is SIGURG caught (a handler installed) in this process?"""
    with open("/proc/self/status") as fh:
        mask = next(int(l.split()[1], 16) for l in fh if l.startswith("SigCgt:"))
    return bool(mask >> (signal.SIGURG - 1) & 1)


def main():
    d = tempfile.mkdtemp(prefix="lockrt-wait-host-")
    path = os.path.join(d, "w.lock")
    calls = {"usr1": 0, "urg": 0}

    def on_usr1(signum, frame):
        calls["usr1"] += 1

    signal.signal(signal.SIGUSR1, on_usr1)

    # A holder that does not let go: the storm neither ends the wait early nor
    # stretches it past the hang guard, and Python's handler runs afterwards.
    holder = hold(path)
    assert not sigurg_caught()
    with Pester(signal.SIGUSR1):
        rc, _, took = acquire(path, 300)
    assert rc == ETIMEDOUT, rc
    assert sigurg_caught()  # the wait blocked under lockrt's timer
    assert 0.299 <= took < HANG_GUARD, took
    time.sleep(0.01)
    assert calls["usr1"] > 0, "the storm never reached the main thread: nothing was tested"

    # A holder that lets go after 300 ms, during the storm: no lost wake-up.
    calls["usr1"] = 0
    timer = threading.Timer(0.3, let_go, [holder])
    with Pester(signal.SIGUSR1):
        timer.start()
        rc, handle, took = acquire(path, int(HANG_GUARD * 1000))
    timer.join()
    assert rc == OK, rc
    assert took < HANG_GUARD, took
    assert lib.lockrt_release(handle) == OK
    time.sleep(0.01)
    assert calls["usr1"] > 0

    # SIGURG taken by the host: lockrt leaves it alone and still times out.
    def on_urg(signum, frame):
        calls["urg"] += 1

    signal.signal(signal.SIGURG, on_urg)
    holder = hold(path)
    for _ in range(2):
        rc, _, took = acquire(path, 300)
        assert rc == ETIMEDOUT, rc
        assert 0.299 <= took < HANG_GUARD, took
    time.sleep(0.05)
    assert calls["urg"] == 0, calls
    assert signal.getsignal(signal.SIGURG) is on_urg
    let_go(holder)
    rc, handle, _ = acquire(path, 5000)
    assert rc == OK and lib.lockrt_release(handle) == OK
    os.unlink(path)
    os.rmdir(d)
    print("ok: Python host signals and the bounded wait")


if __name__ == "__main__":
    main()
