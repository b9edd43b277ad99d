"""Driver: acquire(port) (retried) / critical section / release(); every fifth
turn a crashed server's lock (a dead pid) is left behind for the others to break."""
import json
import os
import subprocess
import sys
import time

_dead = []


def _wire(mod, ctx):
    mod.LOCK_DIR = type(mod.LOCK_DIR)(os.path.join(ctx.work, "locks"))
    mod.LOCK_FILE = mod.LOCK_DIR / "server.lock"
    mod.is_port_listening = lambda port: True  # only a dead pid reads as stale


def _dead_pid():
    if not _dead:
        p = subprocess.Popen([sys.executable, "-c", "pass"])
        p.wait()
        _dead.append(p.pid)
    return _dead[0]


def setup(mod, ctx):
    _wire(mod, ctx)
    os.makedirs(str(mod.LOCK_DIR), exist_ok=True)


def op(mod, ctx, i):
    _wire(mod, ctx)
    for _ in range(5000):
        if mod.acquire(8000 + ctx.worker):
            try:
                ctx.critical()
            finally:
                mod.release()
            break
        time.sleep(0.001)
    else:
        ctx.skip()
        return
    if i % 5 == 4:  # a crashed server: its lock stays, naming an exited process
        try:
            fd = os.open(str(mod.LOCK_FILE), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            return
        with os.fdopen(fd, "w") as f:
            json.dump({"pid": _dead_pid(), "port": 1}, f)


def check(mod, ctx):
    return {}
