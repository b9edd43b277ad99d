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
