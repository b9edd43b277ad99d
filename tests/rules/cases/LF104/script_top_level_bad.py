# A hook script that reads, changes and writes its shared state file as it
# runs, at the module's top level.
import json
import os
import sys
import time

STATE_PATH = os.path.join(os.path.expanduser("~"), ".hooks", "state.json")

payload = json.load(sys.stdin)
session_id = payload.get("session_id", "")

try:
    with open(STATE_PATH, "r", encoding="utf-8") as f:
        state = json.load(f)
except Exception:
    state = {}

state[session_id] = time.time()

with open(STATE_PATH, "w", encoding="utf-8") as f:
    json.dump(state, f)
