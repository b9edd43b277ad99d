"""Driver: `with file_lock(...) as ok` around the critical section; every fifth
turn an abandoned (old) lock is left behind for the others to break."""
import os
import time


def _path(ctx):
    return os.path.join(ctx.work, "locks", "state.lock")


def setup(mod, ctx):
    os.makedirs(os.path.dirname(_path(ctx)), exist_ok=True)


def op(mod, ctx, i):
    with mod.file_lock(_path(ctx), timeout=30.0, stale_after=5.0) as ok:
        if not ok:
            ctx.skip()
            return
        ctx.critical()
    if i % 5 == 4:  # a crashed hook: its lock stays, old
        try:
            os.close(os.open(_path(ctx), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            return
        old = time.time() - 600
        os.utime(_path(ctx), (old, old))


def check(mod, ctx):
    return {}
