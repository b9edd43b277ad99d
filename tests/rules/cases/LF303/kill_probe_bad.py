import os


def owner_alive(pid):
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    else:
        return True


def maybe_reclaim(record, reclaim):
    try:
        os.kill(record["pid"], 0)
        return
    except Exception:
        reclaim()
