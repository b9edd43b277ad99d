"""A pid lock released only while its record names this process: `if
rec["pid"] != os.getpid(): return` before the unlink (after a read that
looks at the lock's existence first, which alone would read as a judgement). The module breaks a
lock only after judging its holder dead, so a live holder's lock never
changes hands between the check and the removal: the release (line 43) is no
finding; the break after the probe (line 30) is."""
import json
import os

LOCK = "/tmp/jobs/server.lock"


def read():
    if not os.path.exists(LOCK):
        return None
    with open(LOCK) as f:
        return json.load(f)


def acquire():
    try:
        fd = os.open(LOCK, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        rec = read()
        try:
            os.kill(rec["pid"], 0)
            return False
        except ProcessLookupError:
            pass
        os.unlink(LOCK)
        return False
    os.write(fd, json.dumps({"pid": os.getpid()}).encode())
    os.close(fd)
    return True


def release():
    rec = read()
    if rec is None:
        return
    if rec["pid"] != os.getpid():
        return
    os.unlink(LOCK)
