"""Driver: every worker atomic_write()s one settings file; a raise is a lost write."""
import json
import os
from pathlib import Path


def _target(ctx):
    return Path(ctx.work) / "settings" / "settings.json"


def op(mod, ctx, i):
    mod.atomic_write(_target(ctx), json.dumps({"worker": ctx.worker, "i": i, "pad": "x" * 4096}))


def check(mod, ctx):
    try:
        final_ok = isinstance(json.loads(_target(ctx).read_text(encoding="utf-8"))["worker"], int)
    except Exception:
        final_ok = False
    want = ctx.procs * ctx.ops
    return {"kept": want, "want": want, "final_ok": final_ok}
