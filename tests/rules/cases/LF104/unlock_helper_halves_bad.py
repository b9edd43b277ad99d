"""The loader and the saver each lock around their own half through the
module's lock helpers; the hook's read-modify-write between them holds
nothing."""
import json
import msvcrt
from pathlib import Path

STATE = Path.home() / ".tracker" / "progress.json"


def _lock_file(f):
    try:
        msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
    except OSError:
        raise


def _unlock_file(f):
    msvcrt.locking(f.fileno(), msvcrt.LK_UNLCK, 1)


def load_progress():
    with open(STATE, "r", encoding="utf-8") as f:
        _lock_file(f)
        data = json.load(f)
        _unlock_file(f)
    return data


def save_progress(state):
    with open(STATE, "w", encoding="utf-8") as f:
        _lock_file(f)
        json.dump(state, f)
        _unlock_file(f)


def on_tool_use(tool_name):
    state = load_progress()
    state["tool_counts"][tool_name] = state["tool_counts"].get(tool_name, 0) + 1
    save_progress(state)
