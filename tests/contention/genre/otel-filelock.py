"""Driver: `with FileLock(path):` around the critical section, one lock file shared by every worker."""
import os
from pathlib import Path


def _lock(ctx):
    return Path(ctx.work) / "state" / "otel_hook_state.lock"


def op(mod, ctx, i):
    with mod.FileLock(_lock(ctx), timeout_s=2.0):
        ctx.critical()


def check(mod, ctx):
    return {}
