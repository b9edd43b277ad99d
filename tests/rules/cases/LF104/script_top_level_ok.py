# Top-level read-modify-writes under a lock, of a private temp directory's
# file, and a copy written elsewhere.
import fcntl
import json
import os
import sys
import tempfile

from filelock import FileLock

STATE_PATH = os.path.join(os.path.expanduser("~"), ".hooks", "state.json")
payload = json.load(sys.stdin)
sid = payload.get("session_id", "")

with FileLock(STATE_PATH + ".lock"):
    with open(STATE_PATH) as f:
        state = json.load(f)
    state[sid] = 1
    with open(STATE_PATH, "w") as f:
        json.dump(state, f)

lock_f = open(STATE_PATH + ".lk", "w")
fcntl.flock(lock_f, fcntl.LOCK_EX)
with open(STATE_PATH) as f:
    counts = json.load(f)
counts[sid] = counts.get(sid, 0) + 1
with open(STATE_PATH, "w") as f:
    json.dump(counts, f)
fcntl.flock(lock_f, fcntl.LOCK_UN)

work = tempfile.mkdtemp()
scratch = os.path.join(work, "s.json")
with open(scratch) as f:
    mine = json.load(f)
mine[sid] = 1
with open(scratch, "w") as f:
    json.dump(mine, f)
