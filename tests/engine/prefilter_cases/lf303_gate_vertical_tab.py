import os


def owner_alive(pid):
    """LF303 gate: a vertical tab after the signal is whitespace to the grammar."""
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False
