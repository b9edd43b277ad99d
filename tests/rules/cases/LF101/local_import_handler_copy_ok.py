"""The function imports fcntl itself; where the import fails the handler
refuses (raises) or takes the Windows lock instead, so the update never runs
unlocked. The lock taken after the import must not make the handler look
locked-and-unlocked."""
import json


def record(path, event):
    try:
        import fcntl
        with open(path + ".lock", "a") as lf:
            fcntl.flock(lf, fcntl.LOCK_EX)
            with open(path, "a") as f:
                f.write(json.dumps(event) + "\n")
    except ImportError as exc:
        raise RuntimeError("record() needs fcntl") from exc


def record_win(path, event):
    try:
        import fcntl
        with open(path + ".lock", "a") as lf:
            fcntl.flock(lf, fcntl.LOCK_EX)
            with open(path, "a") as f:
                f.write(json.dumps(event) + "\n")
    except ImportError:
        import msvcrt
        with open(path + ".lock", "a") as lf:
            msvcrt.locking(lf.fileno(), msvcrt.LK_LOCK, 1)
            with open(path, "a") as f:
                f.write(json.dumps(event) + "\n")


class state_lock:
    def __init__(self, path):
        self.path = path
        self.fh = None

    def __enter__(self):
        self.fh = open(self.path, "w")
        try:
            import fcntl
            fcntl.flock(self.fh.fileno(), fcntl.LOCK_EX)
        except ImportError:
            import msvcrt
            msvcrt.locking(self.fh.fileno(), msvcrt.LK_LOCK, 1)
        return self

    def __exit__(self, *exc):
        self.fh.close()


def bump(path):
    with state_lock(path + ".lock"):
        with open(path) as f:
            data = json.load(f)
        data["n"] += 1
        with open(path, "w") as f:
            json.dump(data, f)
