"""Driver: every call appends a distinct id through the module's own callback API."""
import os

SESSION = "contended"


def _use_work_dir(mod, ctx):
    # The module keeps its state under ~/.claude; point its global at the run's directory.
    mod.STATE_DIR = os.path.join(ctx.work, "state")


def setup(mod, ctx):
    _use_work_dir(mod, ctx)
    os.makedirs(mod.STATE_DIR, exist_ok=True)


def op(mod, ctx, i):
    _use_work_dir(mod, ctx)
    tag = "w%d-%d" % (ctx.worker, i)

    def append(state):
        state.setdefault("ids", []).append(tag)
        return len(state["ids"])

    mod.with_locked_state(SESSION, append)


def check(mod, ctx):
    _use_work_dir(mod, ctx)
    ids = mod.load(SESSION).get("ids", [])
    return {"kept": len(set(ids)), "want": ctx.procs * ctx.ops, "final_ok": True}
