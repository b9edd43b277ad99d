"""Helpers for the robustness suites: run lockfix, build trees, compare bytes."""
import os
import pathlib
import signal
import subprocess

BIN = os.environ.get("LOCKFIX_BIN", "")
HOOKS_BIN = os.environ.get("LOCKFIX_HOOKS_BIN", "")
SOURCE_DIR = pathlib.Path(os.environ.get("LOCKFIX_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))

# One LF401 (fixed in place, no vendored file) in our own words.
LF401_PY = b'''\
import json
import os


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)
'''

# The fixture integration module with LF101 (fix vendors lockrt.py), LF201, LF401.
def lf101_source():
    return (SOURCE_DIR / "fixtures" / "integrations" / "claude-code" / "lib" / "state.py").read_bytes()


def run(args, cwd=None, env=None, timeout=300, binary=None, **kw):
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run([binary or BIN] + [str(a) for a in args], cwd=cwd, env=e, capture_output=True,
                          timeout=timeout, **kw)


def fixed_text(tmp_path, name, content):
    """What `fix --apply` makes of `content` (in a scratch directory)."""
    d = tmp_path / ("scratch-" + name)
    d.mkdir()
    (d / name).write_bytes(content)
    r = run(["fix", name, "--apply"], cwd=d)
    assert r.returncode == 0, r.stderr
    out = (d / name).read_bytes()
    assert out != content
    return out


def temps_in(root):
    """Every lockfix temp under root: fix's .<name>.lockfix-XXXXXX, --output's .<name>.XXXXXX."""
    found = []
    for dirpath, dirs, files in os.walk(root):
        for f in files:
            if ".lockfix-" in f or (f.startswith(".") and f.count(".") >= 2 and len(f.rsplit(".", 1)[1]) == 6):
                found.append(os.path.join(dirpath, f))
    return found


def killed_by(rc, sig):
    return rc == -sig


SIGNALS = {"SIGTERM": signal.SIGTERM, "SIGINT": signal.SIGINT, "SIGHUP": signal.SIGHUP}
