"""Driver: every worker publishes line 0 of one slot; a False return is a lost write."""
import json
import os


def _env(ctx):
    return {"CC_VITALS_DUMP_DIR": os.path.join(ctx.work, "published")}


def op(mod, ctx, i):
    return mod.publish_line("slot-1", 0, {"worker": ctx.worker, "i": i, "pad": "x" * 4096}, env=_env(ctx))


def check(mod, ctx):
    try:
        final_ok = isinstance(mod.read_line("slot-1", 0, env=_env(ctx)), dict)
    except Exception:
        final_ok = False
    want = ctx.procs * ctx.ops
    return {"kept": want, "want": want, "final_ok": final_ok}
