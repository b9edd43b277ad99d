"""Driver: every worker sets the current stage; a raise is a lost write."""
import json
import os


def _dir(ctx):
    return os.path.join(ctx.work, ".ai-robin")


def setup(mod, ctx):
    os.makedirs(_dir(ctx), exist_ok=True)
    with open(os.path.join(_dir(ctx), "stage-state.json"), "w") as f:
        json.dump({"current_stage": "intake", "active_invocations": []}, f)


def op(mod, ctx, i):
    mod.set_current_stage(_dir(ctx), mod.VALID_STAGES[(ctx.worker + i) % len(mod.VALID_STAGES)])


def check(mod, ctx):
    try:
        final_ok = mod.read(_dir(ctx))["current_stage"] in mod.VALID_STAGES
    except Exception:
        final_ok = False
    want = ctx.procs * ctx.ops
    return {"kept": want, "want": want, "final_ok": final_ok}
