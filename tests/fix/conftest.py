import os
import shutil
import subprocess

import pytest

SRC = os.environ.get("LOCKFIX_SRC") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("LOCKFIX_BIN") or os.path.join(SRC, "build", "analyzer", "lockfix")


def run(args, cwd, check_rc=None, env=None):
    proc = subprocess.run(args, cwd=cwd, capture_output=True, env=env)
    if check_rc is not None and proc.returncode != check_rc:
        raise AssertionError(
            "%s exited %d (wanted %d)\nstdout:\n%s\nstderr:\n%s"
            % (args, proc.returncode, check_rc, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace"))
        )
    return proc


def lockfix(args, cwd, check_rc=None):
    return run([BIN] + list(args), cwd, check_rc)


def need_tool(name):
    path = shutil.which(name)
    if not path:
        raise AssertionError("%s is required by this test (Debian package: %s)" % (name, name))
    return path


@pytest.fixture
def src_root():
    return SRC
