"""A watchdog's pid file: the start command breaks it after judging its
owner dead (the finding); the daemon's own release at exit and the stop
command's cleanup after it killed the owner are no further bugs."""
import os
import signal
from pathlib import Path

PID_FILE = Path("/run/watchdog/watchdog.pid")


def run_watchdog():
    pass


def start_daemon():
    if PID_FILE.exists():
        try:
            pid = int(PID_FILE.read_text().strip())
            os.kill(pid, 0)
            print(f"already running (PID {pid})")
            return
        except (OSError, ValueError):
            PID_FILE.unlink()
    PID_FILE.write_text(str(os.getpid()))
    try:
        run_watchdog()
    finally:
        if PID_FILE.exists():
            PID_FILE.unlink()


def stop_daemon():
    if not PID_FILE.exists():
        return
    pid = int(PID_FILE.read_text().strip())
    os.kill(pid, signal.SIGTERM)
    if PID_FILE.exists():
        PID_FILE.unlink()


def main(cmd):
    if cmd == "start":
        start_daemon()
    elif cmd == "stop":
        stop_daemon()
