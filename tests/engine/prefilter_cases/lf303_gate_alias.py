"""LF303 gate: os.kill under another name, its signal by keyword. The only
call of it says `send`, so the import's `kill` must let the file through."""
from os import kill as send


def owner_alive(pid):
    try:
        send(pid, signal=0)
    except OSError:
        return False
    return True
