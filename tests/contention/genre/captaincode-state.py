"""Driver: mark_handled() of a distinct event per operation, all on one session."""
import json
import os


def op(mod, ctx, i):
    mod.mark_handled("session-1", "w%d-%d" % (ctx.worker, i), state_dir=os.path.join(ctx.work, "state"))


def check(mod, ctx):
    kept = sum(1 for k in range(ctx.procs) for i in range(ctx.ops)
               if mod.was_handled("session-1", "w%d-%d" % (k, i), state_dir=os.path.join(ctx.work, "state")))
    return {"kept": kept, "want": ctx.procs * ctx.ops}
