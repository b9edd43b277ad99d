"""An approval file read into a record whose fields are handed to a helper
that starts a child and probes the child's own pid: the helper judges no
record's pid, so the removal of the consumed approval afterwards (line 23,
called at line 34) breaks no lock; nor is the probe of the child's pid an
LF303 finding: EPERM never comes from one's own child."""
import json
import os
import subprocess
from pathlib import Path


def _run(workspace, state):
    proc = subprocess.Popen(["tool", "--workspace", workspace, state["task"]])
    try:
        os.kill(proc.pid, 0)
    except OSError:
        return False
    proc.wait()
    return True


def _cleanup(path):
    path.unlink(missing_ok=True)


def consume(approval: Path):
    with approval.open() as f:
        state = json.load(f)
    workspace = state["workspace"]
    try:
        if not _run(workspace, state):
            print("child did not start")
    finally:
        _cleanup(approval)
