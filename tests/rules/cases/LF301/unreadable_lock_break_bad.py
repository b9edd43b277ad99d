"""A pid lock taken with O_EXCL and written after the create: until its pid is
written it reads as empty, and int('') fails. The handler that takes a read
failure for a corrupt lock removes it by name, and deletes a live lock its
acquirer is still writing, race or no race. That is its own bug beside the
stale break on the recorded pid (line 28), so each gets a finding (lines 28
and 32); a handler that only reports the failure removes nothing (status)."""

import os
import time


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def take(path):
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        try:
            with open(path) as f:
                pid = int(f.read().strip())
            if not pid_alive(pid):
                os.unlink(path)
        except ValueError:
            # an unreadable pid: taken for a corrupt lock
            print("corrupt lock, removing")
            os.unlink(path)
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)


def status(path):
    try:
        with open(path) as f:
            return int(f.read().strip())
    except ValueError:
        return None



PID_LOCK = "/tmp/reaper.pid"


def reap():
    """A handler that catches what the pid probe raises is (also) its verdict:
    the owner judged dead. A break after that probe is a bug of its own beside
    the break on the lock's age above it (two findings, lines 55 and 62)."""
    if time.time() - os.path.getmtime(PID_LOCK) > 60:
        os.unlink(PID_LOCK)
        return
    try:
        with open(PID_LOCK) as f:
            pid = int(f.read())
        os.kill(pid, 0)
    except (ValueError, ProcessLookupError):
        os.unlink(PID_LOCK)
    fd = os.open(PID_LOCK, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)


OTHER_LOCK = "/tmp/other.pid"


def reap_other():
    """The same, but the handler catches only the failed read: the probe's
    failure is not its verdict, so it is the failed-read break (line 83)
    beside the stale break on age (line 76)."""
    if time.time() - os.path.getmtime(OTHER_LOCK) > 60:
        os.unlink(OTHER_LOCK)
        return
    try:
        with open(OTHER_LOCK) as f:
            pid = int(f.read())
        os.kill(pid, 0)
    except ValueError:
        os.unlink(OTHER_LOCK)
    fd = os.open(OTHER_LOCK, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
