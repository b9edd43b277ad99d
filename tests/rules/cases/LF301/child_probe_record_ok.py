"""A job runner reads an approval record, runs a child and waits on it with
kill(pid, 0), then consumes the record: the pid probed is the child's, not
one read from the record, so the record is no pid lock."""
import json
import os
import subprocess
import time
from pathlib import Path


def run_approved(approval: Path) -> None:
    state = json.loads(approval.read_text())
    proc = subprocess.Popen(["worker", state["task"]])
    while True:
        try:
            os.kill(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(1)
    approval.unlink()
