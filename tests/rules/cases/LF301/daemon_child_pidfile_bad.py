"""A daemon starter writes its child's pid (`proc.pid` of the Popen) where
the next start looks for a live owner: a pid lock. Judging the recorded
owner dead and unlinking by name (line 25) races another starter that did
the same and wrote its child's pid in between. The starter's rollback of its
own record by name (line 40) is then a finding too: the record it wrote may
be the one that racing breaker deleted and replaced. The stop command's
cleanup after signalling the owner (line 56) removes what it stopped: not
reported, and the stop command's wait for the signalled pid to exit judges
no lock."""
import os
import signal
import subprocess
import sys
import time

PID_FILE = "/run/tool/daemon.pid"


def read_live_pid():
    try:
        with open(PID_FILE) as f:
            pid = int(f.read())
        os.kill(pid, 0)
    except ProcessLookupError:
        os.unlink(PID_FILE)
        return None
    except (OSError, ValueError):
        return None
    return pid


def start():
    if read_live_pid() is not None:
        raise RuntimeError("already running")
    proc = subprocess.Popen([sys.executable, "-m", "tool.server"], start_new_session=True)
    with open(PID_FILE, "w") as f:
        f.write(str(proc.pid))
    time.sleep(0.5)
    if proc.poll() is not None:
        os.unlink(PID_FILE)
        raise RuntimeError("server exited at once")
    return proc.pid


def stop():
    pid = read_live_pid()
    if pid is None:
        return False
    os.kill(pid, signal.SIGTERM)
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except OSError:
            break
        time.sleep(0.1)
    os.unlink(PID_FILE)
    return True
