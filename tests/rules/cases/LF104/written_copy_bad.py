"""The document read is written back under another name: a copy filled from
it, a filtered list of it, or the text of it bound to a name first. Each
loses what another process wrote in between."""
import json
import os
import tempfile
from pathlib import Path

STATE = Path.home() / ".hooks" / "sessions.json"


def _read_rows(path):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_rows(path, rows):
    payload = json.dumps(rows, indent=2)
    tmp_name = None
    fd, tmp_name = tempfile.mkstemp(dir=str(path.parent), suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(payload)
    os.replace(tmp_name, path)


def upsert(session_id, status):
    rows = _read_rows(STATE)
    rows[session_id] = {"status": status}
    kept = {}
    for sid, row in rows.items():
        if row.get("status") != "gone":
            kept[sid] = row
    _write_rows(STATE, kept)


def prune(limit):
    entries = json.loads(STATE.read_text())
    recent = sorted(entries, key=lambda e: e["at"])[-limit:]
    STATE.write_text(json.dumps(recent))


def count(key):
    counts = json.loads(STATE.read_text())
    counts[key] = counts.get(key, 0) + 1
    text = json.dumps(counts)
    STATE.write_text(text)


def _tokens():
    if not STATE.exists():
        return 0
    return int(json.loads(STATE.read_text()).get("tokens", 0))


def add_tokens(delta):
    total = _tokens() + delta
    STATE.write_text(json.dumps({"tokens": total}))
    return total
