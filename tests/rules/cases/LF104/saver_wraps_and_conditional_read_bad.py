# A saver that wraps its parameter in a literal before writing it, and a read
# kept through a conditional expression.
import json
import threading
from pathlib import Path

_lock = threading.Lock()
SESSIONS = Path.home() / ".app" / "sessions.json"


def _load_history(path):
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return data.get("entries", {})


def _save_history(path, entries):
    data = {"version": 1, "entries": entries}
    path.write_text(json.dumps(data), encoding="utf-8")


def recalled(path, key, now):
    history = _load_history(path)
    history[key] = now
    _save_history(path, history)


def register(session_id, entry):
    with _lock:
        pass
    existing = json.loads(SESSIONS.read_text()) if SESSIONS.exists() else {}
    existing[session_id] = entry
    SESSIONS.write_text(json.dumps(existing))
