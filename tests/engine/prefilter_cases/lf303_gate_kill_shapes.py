"""LF303 gate: the word kill in calls that send a real signal or none, and a
def named kill; one probe, its zero in brackets. This file must still be
parsed, and the probe reported."""
import os
import signal


class Worker:
    def kill(self):
        os.kill(self.pid, signal.SIGTERM)


def stop(proc):
    proc.kill()


def holder_alive(lock_path):
    with open(lock_path) as f:
        pid = int(f.read())
    try:
        os.kill(
            pid,
            (0),
        )
    except OSError:
        return False
    return True
