"""A watchdog's pid file: the start command breaks it by name after judging
its owner dead (line 26), and the daemon's own release at exit is by name
too (line 32): two starters that judged the same owner dead race, the slower
deletes the faster one's fresh pid file, and the faster one's exit then
deletes the slower one's. The stop command's cleanup after it killed the
owner is no bug."""
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
