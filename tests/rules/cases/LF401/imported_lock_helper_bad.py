"""Look-alikes of a lock taken through another module's helper: a helper
named for locking that takes an entry id, not a file this function opened
(whatever it marks, nothing here shows a process lock), and no helper at
all. Both writers share the temp."""
import json
from pathlib import Path

from shared.locking import lock_entry, unlock_entry

BOARD = Path.home() / ".board" / "board.json"


def mark_read(entry_id):
    lock_entry(entry_id)
    try:
        board = json.loads(BOARD.read_text())
        board.setdefault("read", []).append(entry_id)
        staged = BOARD.with_suffix(".tmp")
        staged.write_text(json.dumps(board))
        staged.rename(BOARD)
    finally:
        unlock_entry(entry_id)


def mark_unread(entry_id):
    board = json.loads(BOARD.read_text())
    board["read"] = [e for e in board.get("read", []) if e != entry_id]
    staged = BOARD.with_suffix(".tmp")
    staged.write_text(json.dumps(board))
    staged.rename(BOARD)
