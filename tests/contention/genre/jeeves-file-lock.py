"""Driver: `with FileLock(path):` around the critical section, one path shared by every worker."""
import os


def _path(ctx):
    return os.path.join(ctx.work, "data", "state.json")


def setup(mod, ctx):
    os.makedirs(os.path.dirname(_path(ctx)), exist_ok=True)


def op(mod, ctx, i):
    try:
        with mod.FileLock(_path(ctx), timeout=10.0):
            ctx.critical()
    except TimeoutError:
        ctx.skip()


def check(mod, ctx):
    return {}
