"""Removals that are fine: identity-checked lock release, and package-manager lock files."""

import os
from pathlib import Path


def release(lock_path, held_identity):
    st = os.lstat(lock_path)
    if (st.st_dev, st.st_ino) != held_identity:
        return False
    os.unlink(lock_path)
    return True


def reset_js(project):
    for name in ("package-lock.json", "yarn.lock", "pnpm-lock.yaml"):
        p = os.path.join(project, name)
        if os.path.exists(p):
            os.remove(p)
    lockfile = Path(project) / "poetry.lock"
    lockfile.unlink(missing_ok=True)


def clean_build(build_dir):
    os.remove(os.path.join(build_dir, "output.bin"))
