"""A hook's JSON-lines run log, kept to its last 200 entries: each run reads
every line, appends its own entry, trims and rewrites the whole file, with no
lock. Two hooks that run at once both read the same lines, and the second
rewrite drops the first one's entry. Written back as one joined text (line
21) or a line at a time (line 32); each is reported at its read (lines 15
and 25)."""
import json
from pathlib import Path

RUNS = Path.home() / ".hooks" / "runs.jsonl"


def log_run(entry):
    rows = []
    if RUNS.exists():
        for line in RUNS.read_text().strip().split("\n"):
            if line.strip():
                rows.append(json.loads(line))
    rows.append(entry)
    rows = rows[-200:]
    RUNS.write_text("\n".join(json.dumps(r) for r in rows) + "\n")


def log_run_lines(entry):
    rows = []
    with open(RUNS) as f:
        for line in f:
            rows.append(json.loads(line))
    rows.append(entry)
    with open(RUNS, "w") as f:
        for r in rows[-200:]:
            f.write(json.dumps(r) + "\n")
