"""Driver: `with vault_lock(vault):` around the critical section, one vault shared by every worker."""
import os


def setup(mod, ctx):
    os.makedirs(os.path.join(ctx.work, "vault", "registry"), exist_ok=True)


def op(mod, ctx, i):
    with mod.vault_lock(os.path.join(ctx.work, "vault"), timeout_s=60):
        ctx.critical()


def check(mod, ctx):
    return {}
