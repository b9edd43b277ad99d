"""The same probe, but "not running" also removes the pid file so that a new
instance can start: an EPERM (the service runs as another user) now deletes
a live service's pid file and lets a second one in."""
import os
import pathlib
import sys

PIDFILE = pathlib.Path("/srv/app/run.pid")
if not PIDFILE.exists():
    print("no pid file")
    sys.exit(1)

with PIDFILE.open() as f:
    pid = int(f.read())

try:
    os.kill(pid, 0)
except OSError:
    print("not running; clearing")
    PIDFILE.unlink()
    sys.exit(1)

sys.exit(0)
