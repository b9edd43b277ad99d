"""Driver: the same finding reported N*M times through create(); read recurrences back."""
import json
import os

ARGS = ("src/app.py", "TODO: handle the error")


def _debt_dir(mod):
    return mod._dir()


def setup(mod, ctx):
    if mod.create(*ARGS) is None:
        raise RuntimeError("create() failed in setup")


def op(mod, ctx, i):
    return mod.create(*ARGS) is not None


def check(mod, ctx):
    path = os.path.join(str(_debt_dir(mod)), mod._stable_id(*ARGS) + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    except ValueError:  # torn by concurrent writers: nothing kept, and the file does not read back
        return {"kept": 0, "want": ctx.procs * ctx.ops, "final_ok": False}
    return {"kept": d["recurrences"] - 1, "want": ctx.procs * ctx.ops}
