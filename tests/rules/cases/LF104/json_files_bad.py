import json
from pathlib import Path


def add_session(registry_path, session_id, info):
    with open(registry_path, encoding="utf-8") as fh:
        registry = json.load(fh)
    registry[session_id] = info
    with open(registry_path, "w", encoding="utf-8") as fh:
        json.dump(registry, fh)


def bump(counter: Path, key: str) -> int:
    counts = json.loads(counter.read_text())
    counts[key] = counts.get(key, 0) + 1
    counter.write_text(json.dumps(counts))
    return counts[key]


def _append_event(log_path, event):
    events = json.loads(log_path.read_text())
    events.append(event)
    log_path.write_text(json.dumps(events))


def record_locked(log_path, event, lock):
    with lock:
        _append_event(log_path, event)


def record_unlocked(log_path, event):
    # one caller takes no lock: the helper's update can be lost
    _append_event(log_path, event)
