"""Helpers shared by the pytest suites that drive the lockfix binary."""
import contextlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import urllib.parse

BIN = os.environ.get("LOCKFIX_BIN", "")
SOURCE_DIR = pathlib.Path(os.environ.get("LOCKFIX_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))

# A module with one LF401, one LF201 (errors) and one LF303: lines and columns
# are asserted by the tests that use it. (LF201 needs publish(): Python's guard
# only bites on a file the module replaces.)
STATE_PY = '''\
import json
import os


def write_state(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def state_file(state_dir, name):
    path = os.path.join(state_dir, name)
    if not os.path.realpath(path).startswith(os.path.realpath(state_dir) + os.sep):
        raise ValueError(name)
    return path


def alive(pid):
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def publish(tmp, state_dir, name):
    os.replace(tmp, state_file(state_dir, name))
'''
STATE_FINDINGS = [(6, 11, "LF401"), (14, 12, "LF201"), (21, 9, "LF303")]

CLEAN_PY = "def add(a, b):\n    return a + b\n"


def run(*args, cwd=None, timeout=60, env=None):
    if not BIN:
        raise RuntimeError("LOCKFIX_BIN is not set (run through ctest)")
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    return subprocess.run([BIN, *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=full_env)


UNPRIVILEGED_UID = 65534  # nobody


@contextlib.contextmanager
def unprivileged_tree():
    """A scratch directory uid 65534 can enter (pytest's tmp_path base is 0700)."""
    d = pathlib.Path(tempfile.mkdtemp(prefix="lockfix-unpriv-"))
    d.chmod(0o755)
    try:
        yield d
    finally:
        shutil.rmtree(d)  # a mode-0 file goes with its directory


def run_unprivileged(args, cwd, timeout=60):
    """Run lockfix as a user without privileges: directly when not root, else
    as uid 65534 through setpriv (util-linux), so a case that needs the kernel's
    permission checks runs as root too instead of being skipped."""
    if os.geteuid() != 0:
        return run(*args, cwd=cwd, timeout=timeout)
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (Debian: util-linux) is needed to run this case as uid 65534"
    uid = str(UNPRIVILEGED_UID)
    return subprocess.run([setpriv, "--reuid=" + uid, "--regid=" + uid, "--clear-groups", BIN, *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout)


def write(path, text, mode="w"):
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, mode) as f:
        f.write(text)
    return path


# ---- one parser per format: each returns [(path, line, col, rule)] in output order ----

_TEXT_HEAD = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<rule>LF\d+) ")


def parse_text(out):
    found = []
    for line in out.splitlines():
        if line.startswith(" ") or not line:
            continue
        m = _TEXT_HEAD.match(line)
        if m:
            found.append((m["path"], int(m["line"]), int(m["col"]), m["rule"]))
    return found


def parse_json(out):
    doc = json.loads(out)
    return [(f["path"], f["line"], f["column"], f["rule_id"]) for f in doc["findings"]]


def parse_sarif(out):
    doc = json.loads(out)
    run_ = doc["runs"][0]
    found = []
    for r in run_["results"]:
        loc = r["locations"][0]["physicalLocation"]
        uri = urllib.parse.unquote(loc["artifactLocation"]["uri"])
        reg = loc["region"]
        found.append((uri, reg["startLine"], reg["startColumn"], r["ruleId"]))
    return found


def _gh_unescape(s):
    return (s.replace("%2C", ",").replace("%3A", ":").replace("%0A", "\n")
             .replace("%0D", "\r").replace("%25", "%"))


_GH = re.compile(r"^::(error|warning|notice) (?P<props>[^:]*)::(?P<msg>.*)$")


def parse_github_full(out):
    items = []
    for line in out.splitlines():
        m = _GH.match(line)
        assert m, f"not a workflow command: {line!r}"
        props = dict(p.split("=", 1) for p in m["props"].split(","))
        props = {k: _gh_unescape(v) for k, v in props.items()}
        items.append((m.group(1), props, _gh_unescape(m["msg"])))
    return items


def parse_github(out):
    return [(p["file"], int(p["line"]), int(p["col"]), p["title"].split(" ")[0])
            for _, p, _ in parse_github_full(out)]


PARSERS = {"text": parse_text, "json": parse_json, "sarif": parse_sarif, "github": parse_github}
