"""A pid lock taken with O_EXCL and written after the create: until its pid is
written it reads as empty, and int('') fails. The handler that takes a read
failure for a corrupt lock removes it by name, and deletes a live lock its
acquirer is still writing, race or no race. That is its own bug beside the
stale break on the recorded pid (line 27), so each gets a finding (lines 27
and 31); a handler that only reports the failure removes nothing (status)."""

import os


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
