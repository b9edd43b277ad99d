"""Item 3: no lockfix temp outlives SIGINT, SIGTERM or SIGHUP, and an interrupted
`fix --apply` leaves every file entirely old or entirely new."""
import os
import pathlib
import signal
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from robust import BIN, HOOKS_BIN, LF401_PY, SIGNALS, fixed_text, temps_in  # noqa: E402


def start(args, cwd, binary, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.Popen([binary] + args, cwd=cwd, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for_line(proc, prefix):
    """Read stderr until a line starting with prefix; returns the lines read."""
    lines = []
    for raw in iter(proc.stderr.readline, b""):
        lines.append(raw)
        if raw.startswith(prefix):
            return lines
    raise AssertionError("process ended before %r: %r" % (prefix, lines))


@pytest.mark.parametrize("where", ["commit", "exchange"])
@pytest.mark.parametrize("signame", sorted(SIGNALS))
def test_signal_while_the_fix_temp_exists_removes_it(tmp_path, where, signame):
    (tmp_path / "state.py").write_bytes(LF401_PY)
    p = start(["fix", "state.py", "--apply"], tmp_path, HOOKS_BIN, {"LOCKFIX_HOOK_PAUSE": where})
    wait_for_line(p, b"PAUSED ")
    temps = temps_in(tmp_path)
    assert len(temps) == 1 and os.path.basename(temps[0]).startswith(".state.py.lockfix-"), temps
    p.send_signal(SIGNALS[signame])
    p.communicate(timeout=60)
    assert p.returncode == -SIGNALS[signame]  # re-raised: the parent sees the signal
    assert temps_in(tmp_path) == []
    assert (tmp_path / "state.py").read_bytes() == LF401_PY  # entirely old
    assert sorted(os.listdir(tmp_path)) == ["state.py"]


@pytest.mark.parametrize("signame", sorted(SIGNALS))
def test_signal_while_the_report_temp_exists_removes_it(tmp_path, signame):
    (tmp_path / "state.py").write_bytes(LF401_PY)
    (tmp_path / "out.json").write_bytes(b"OLD REPORT\n")
    p = start(["scan", "--format", "json", "-o", "out.json", "state.py"], tmp_path, HOOKS_BIN,
              {"LOCKFIX_HOOK_PAUSE": "report"})
    lines = wait_for_line(p, b"PAUSED ")
    tmp = lines[-1].split(b" ", 1)[1].strip().decode()
    assert os.path.basename(tmp).startswith(".out.json.") and os.path.exists(tmp_path / tmp)
    p.send_signal(SIGNALS[signame])
    p.communicate(timeout=60)
    assert p.returncode == -SIGNALS[signame]
    assert sorted(os.listdir(tmp_path)) == ["out.json", "state.py"]
    assert (tmp_path / "out.json").read_bytes() == b"OLD REPORT\n"


def test_ignored_signal_stays_ignored(tmp_path):
    """nohup: an ignored SIGHUP neither kills lockfix nor loses its temp handling."""
    (tmp_path / "state.py").write_bytes(LF401_PY)
    p = subprocess.Popen([HOOKS_BIN, "fix", "state.py", "--apply"], cwd=tmp_path, stderr=subprocess.PIPE,
                         env=dict(os.environ, LOCKFIX_HOOK_PAUSE="commit"),
                         preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    wait_for_line(p, b"PAUSED ")
    p.send_signal(signal.SIGHUP)
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=60)
    assert p.returncode == -signal.SIGTERM
    assert temps_in(tmp_path) == []


N_DIRS, N_PER_DIR = 40, 100


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_kill_fix_apply_mid_run_on_a_large_tree(tmp_path, signame):
    """The real lockfix on 4000 files, signalled once it has fixed some: no temp
    remains and each file is byte for byte the old or the fixed text."""
    new = fixed_text(tmp_path, "state.py", LF401_PY)
    root = tmp_path / "tree"
    for d in range(N_DIRS):
        sub = root / ("pkg%02d" % d)
        sub.mkdir(parents=True)
        for f in range(N_PER_DIR):
            (sub / ("m%03d.py" % f)).write_bytes(LF401_PY)
    p = start(["fix", ".", "--apply"], root, BIN)
    fixed = 0
    for raw in iter(p.stderr.readline, b""):
        if raw.startswith(b"fixed "):
            fixed += 1
            if fixed == 200:
                p.send_signal(SIGNALS[signame])
                break
    p.communicate(timeout=300)
    assert fixed == 200, "the run ended before it could be interrupted"
    assert p.returncode == -SIGNALS[signame]
    assert temps_in(root) == []
    counts = {"old": 0, "new": 0}
    for dirpath, _, files in os.walk(root):
        for f in files:
            data = (pathlib.Path(dirpath) / f).read_bytes()
            assert data in (LF401_PY, new), "%s is neither the old nor the fixed text" % f
            counts["old" if data == LF401_PY else "new"] += 1
    assert counts["old"] + counts["new"] == N_DIRS * N_PER_DIR
    # Interrupted in the middle: some files were written, some not yet.
    assert counts["new"] >= 200 and counts["old"] > 0, counts
