"""A JSONL queue: appenders lock each append, but the flush reads every
line, sends some and rewrites the rest with no lock: an event appended
between the read and the rewrite is lost."""
import fcntl
import json
import os
from pathlib import Path

QUEUE = Path.home() / ".telemetry" / "push_queue.jsonl"


def enqueue(event: dict) -> None:
    line = json.dumps(event) + "\n"
    fd = os.open(str(QUEUE), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, line.encode())
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _rewrite_queue(events: list) -> None:
    with open(QUEUE, "w") as f:
        for event in events:
            f.write(json.dumps(event) + "\n")


def flush(send) -> int:
    events = []
    with open(QUEUE, "r") as f:
        for line in f:
            line = line.strip()
            if line:
                events.append(json.loads(line))
    sent = send(events)
    remaining = events[sent:]
    _rewrite_queue(remaining)
    return sent
