"""Every session's statusline appends samples to a shared JSONL history and
then prunes it: read, keep the recent records, and replace the file through
a writer handed the serialised text. A sample another session appends
between the read and the replace is lost."""
import json
import os
import tempfile

HISTORY = os.path.expanduser("~/.claude/usage/history.jsonl")


def _atomic_write(path, contents):
    fd, tmp_path = tempfile.mkstemp(dir=os.path.dirname(path))
    with os.fdopen(fd, "w") as f:
        f.write(contents)
    os.replace(tmp_path, path)


def read_history(path=HISTORY):
    samples = []
    with open(path) as f:
        for line in f:
            samples.append(json.loads(line))
    return samples


def append_history(sample, path=HISTORY):
    with open(path, "a") as f:
        f.write(json.dumps(sample) + "\n")


def prune_history(now, path=HISTORY):
    samples = [s for s in read_history(path) if s.get("resets_at", 0) > now]
    contents = "".join(json.dumps(s) + "\n" for s in samples)
    _atomic_write(path, contents)
