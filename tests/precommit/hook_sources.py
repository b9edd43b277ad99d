"""What the pre-commit hook tests commit: a module the hook must reject (one
LF401 at 5:11) and its safe version; and git in a scratch repository."""
import subprocess

UNSAFE = '''import os


def write_state(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
'''

SAFE = '''import os
import tempfile


def write_state(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
'''


def git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True)
