"""Driver: a distinct prompt per put(); count get() hits."""
import os
from pathlib import Path


def _path(ctx):
    return Path(ctx.work) / "hyde-cache.json"


def op(mod, ctx, i):
    mod.put("prompt w%d-%d" % (ctx.worker, i), "model", "expansion %d" % i, path=_path(ctx), max_entries=10 ** 6)


def check(mod, ctx):
    kept = sum(1 for k in range(ctx.procs) for i in range(ctx.ops)
               if mod.get("prompt w%d-%d" % (k, i), "model", path=_path(ctx)) is not None)
    return {"kept": kept, "want": ctx.procs * ctx.ops}
