"""A container health check: it reads the pid file the service writes and
probes that process, and its verdict only reports (prints, exits 1). The
module takes, breaks and removes no lock: the probe judges no lock's holder."""
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
    print("not running")
    sys.exit(1)

sys.exit(0)
