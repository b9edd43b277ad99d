"""The temp is written and renamed while a lock taken through another
module's helper is held: the helper locks a file this function opened, and
its pair gives it back in the finally. No other writer shares the temp."""
import json
from pathlib import Path

from shared.locking import acquire_lock, release_lock

BOARD = Path.home() / ".board" / "board.json"
BOARD_LOCK = BOARD.with_suffix(".lock")


def mark_read(entry_id):
    handle = None
    try:
        handle = open(BOARD_LOCK, "w")
        acquire_lock(handle)
        board = json.loads(BOARD.read_text())
        board.setdefault("read", []).append(entry_id)
        staged = BOARD.with_suffix(".tmp")
        staged.write_text(json.dumps(board))
        staged.rename(BOARD)
    finally:
        if handle is not None:
            release_lock(handle)
            handle.close()
