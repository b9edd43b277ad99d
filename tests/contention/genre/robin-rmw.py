"""Driver: every call adds a distinct active invocation; the ones read back are kept."""
import json
import os


def _dir(ctx):
    return os.path.join(ctx.work, ".ai-robin")


def setup(mod, ctx):
    os.makedirs(_dir(ctx), exist_ok=True)
    with open(os.path.join(_dir(ctx), "stage-state.json"), "w") as f:
        json.dump({"current_stage": "intake", "active_invocations": []}, f)


def op(mod, ctx, i):
    mod.add_active_invocation(_dir(ctx), {"invocation_id": "w%d-%d" % (ctx.worker, i)})


def check(mod, ctx):
    try:
        ids = {inv["invocation_id"] for inv in mod.read(_dir(ctx))["active_invocations"]}
        final_ok = True
    except Exception:
        ids, final_ok = set(), False
    want = ctx.procs * ctx.ops
    return {"kept": len(ids), "want": want, "final_ok": final_ok}
