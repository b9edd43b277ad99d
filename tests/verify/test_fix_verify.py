"""`lockfix fix --apply --verify CMD`: each integration's fixes are kept only
when its own test suite passes before and after them.

The monorepo is a copy of three fixture integrations with their pytest suites.
A test-only rule (rules/LF990) adds a fix that still parses but breaks omo's
`record_tool_use` (+ 1 becomes + 2); its generator exists only in
lockfix-testhooks. omo must come back byte for byte, without the lockrt.py its
LF101 fix vendored; claude-code and cline must end up exactly as a plain
`lockfix fix --apply` leaves them.
"""
import json
import os
import pathlib
import re
import shutil
import stat
import subprocess

import pytest

from lfcli import SOURCE_DIR, run

TESTHOOKS = os.environ.get("LOCKFIX_TESTHOOKS_BIN", "")
PYTHON = os.environ.get("LOCKFIX_PYTHON", "/usr/bin/python3")
INTEGRATIONS = SOURCE_DIR / "fixtures" / "integrations"
RULES = pathlib.Path(__file__).resolve().parent / "rules"
PYTEST = f"{PYTHON} -m pytest -q -p no:cacheprovider"
ENV = {"PYTHONDONTWRITEBYTECODE": "1"}
# pytest prints whole multi-line failure messages in its short summary when it
# believes it runs on CI (CI or BUILD_NUMBER set), one truncated line otherwise;
# the assertions on the verify tail below pin the latter.
PYTEST_ON_CI_VARS = ("CI", "BUILD_NUMBER")


def verify_env():
    env = {k: v for k, v in os.environ.items() if k not in PYTEST_ON_CI_VARS}
    env.update(ENV)
    return env


def copy(dst, names=("claude-code", "cline", "omo")):
    for name in names:
        shutil.copytree(INTEGRATIONS / name, dst / name)
    return dst


def snapshot(root):
    """Every file under root: relative path -> (bytes, permission bits); directories too."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        out[rel] = ("dir", stat.S_IMODE(p.stat().st_mode)) if p.is_dir() else \
            (p.read_bytes(), stat.S_IMODE(p.stat().st_mode))
    return out


def under(snap, name):
    return {k: v for k, v in snap.items() if k == name or k.startswith(name + "/")}


def run_testhooks(*args, cwd):
    return subprocess.run([TESTHOOKS, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env=verify_env())


@pytest.fixture
def trees(tmp_path):
    mono = copy(tmp_path / "mono")
    before = snapshot(mono)
    reference = copy(tmp_path / "reference")
    r = run("fix", "--no-config", "--apply", ".", cwd=reference, env=ENV)
    assert r.returncode == 1, r.stderr  # cline's LF104 has no safe fix
    return mono, before, snapshot(reference)


def test_a_broken_fix_is_rolled_back_byte_for_byte_and_the_others_are_kept(trees):
    mono, before, reference = trees
    r = run_testhooks("fix", "--no-config", "--rules", RULES, "--apply", "--verify", PYTEST, ".", cwd=mono)
    assert r.returncode == 1, r.stderr
    after = snapshot(mono)
    # omo: exactly as before (its state.py restored, the vendored lockrt.py gone).
    assert under(after, "omo") == under(before, "omo")
    assert "omo/lib/lockrt.py" in reference  # the fix really had created it
    # The others: exactly what the plain fan-out gives.
    for name in ("claude-code", "cline"):
        assert under(after, name) == under(reference, name), name
    assert under(after, "claude-code") != under(before, "claude-code")

    err = r.stderr.splitlines()
    head = err.index("fan-out over . (applied, verified): 3 integrations, 2 changed, 1 not kept, 2 with findings left")
    summary = err[head:]
    assert summary[1] == ("  claude-code: fixed LF101 x2, LF201, LF401 in lib/state.py; adds lib/lockrt.py; "
                          "verified")
    assert summary[2] == "  cline: fixed LF201, LF401 in lib/state.py; verified"
    omo = summary.index("  omo: rolled back: the verify command failed after the fixes (exit 1); "
                        "its files are restored")
    tail = [line[6:] for line in summary[omo + 1:] if line.startswith("    | ")]
    assert 1 <= len(tail) <= 10
    # pytest's own report: the short summary, then the counts.
    assert any(line.startswith("FAILED tests/test_state.py::test_increment_and_tools") for line in tail), tail
    assert re.match(r"\d+ failed, \d+ passed in ", tail[-1]), tail
    left = [line for line in summary[omo + 1:] if line.startswith("    left ")]
    assert sorted(left) == sorted([
        "    left LF201 at lib/state.py:31: rolled back: the verify command failed after the fix",
        "    left LF401 at lib/state.py:46: rolled back: the verify command failed after the fix",
        "    left LF101 at lib/state.py:54: rolled back: the verify command failed after the fix",
        "    left LF990 at lib/state.py:86: rolled back: the verify command failed after the fix",
    ])
    assert "lockfix: verify omo after the fix: exit 1" in err
    assert err[-1] == "lockfix: applied 6 fixes in 2 files; 6 findings left unfixed (1 integration not kept by --verify)"
    # The findings are still there for the next run; the kept ones are fixed.
    r = run_testhooks("scan", "--no-config", "--rules", RULES, "--format", "json", ".", cwd=mono)
    rules = sorted((f["path"].split("/")[0], f["rule_id"]) for f in json.loads(r.stdout)["findings"])
    assert rules == [("cline", "LF104"), ("cline", "LF104"),
                     ("omo", "LF101"), ("omo", "LF201"), ("omo", "LF401"), ("omo", "LF990")]


def test_without_the_verify_the_broken_fix_would_have_gone_in(tmp_path):
    """The control: the test rule's fix does break omo's suite."""
    mono = copy(tmp_path / "mono", ("omo",))
    r = run_testhooks("fix", "--no-config", "--rules", RULES, "--apply", ".", cwd=mono)
    assert r.returncode == 0, r.stderr
    assert "tools.get(tool, 0) + 2" in (mono / "omo" / "lib" / "state.py").read_text()
    p = subprocess.run(PYTEST.split(), cwd=mono / "omo", capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, **ENV))
    assert p.returncode == 1 and "FAILED tests/test_state.py::test_increment_and_tools" in p.stdout, p.stdout


def test_a_command_that_fails_before_the_fix_leaves_the_integration_alone(tmp_path):
    mono = copy(tmp_path / "mono", ("claude-code", "cline"))
    before = snapshot(mono)
    # Fails in cline only, whatever the fixes do.
    cmd = "test \"$(basename \"$PWD\")\" != cline || { echo cline is broken already; exit 3; }"
    r = run("fix", "--no-config", "--apply", "--verify", cmd, ".", cwd=mono, env=ENV)
    assert r.returncode == 1
    after = snapshot(mono)
    assert under(after, "cline") == under(before, "cline")
    assert under(after, "claude-code") != under(before, "claude-code")
    assert ("  cline: not fixed: the verify command fails without the fixes (exit 3), so it cannot vouch for "
            "them; nothing was changed\n    | cline is broken already\n") in r.stderr
    assert "lockfix: verify cline after" not in r.stderr


def test_dir_is_substituted_quoted_and_the_command_runs_from_here(tmp_path):
    mono = copy(tmp_path / "mono", ("claude-code", "cline"))
    (mono / "cline").rename(mono / "it's cline")
    log = tmp_path / "log"
    r = run("fix", "--no-config", "--apply", "--verify", f"printf '%s|%s\\n' {{dir}} \"$PWD\" >> {log}", ".",
            cwd=mono, env=ENV)
    assert r.returncode == 1, r.stderr  # cline's LF104 is left
    assert log.read_text().splitlines() == [f"claude-code|{mono}"] * 2 + [f"it's cline|{mono}"] * 2


def test_a_created_file_the_command_changed_is_not_removed(tmp_path):
    """Restoring never destroys what someone else wrote: the vendored file the
    command appended to stays (exit 2, named), the rewritten file is restored."""
    mono = copy(tmp_path / "mono", ("claude-code",))
    before = snapshot(mono)
    cmd = "if [ -e lib/lockrt.py ]; then echo '# mine' >> lib/lockrt.py; exit 1; fi"
    r = run("fix", "--no-config", "--apply", "--verify", cmd, ".", cwd=mono, env=ENV)
    assert r.returncode == 2
    assert "claude-code/lib/lockrt.py: not removed: it no longer holds what the fix created" in r.stderr
    after = snapshot(mono)
    assert after["claude-code/lib/state.py"] == before["claude-code/lib/state.py"]
    assert after["claude-code/lib/lockrt.py"][0].endswith(b"# mine\n")


def test_directories_the_fix_created_go_with_what_appeared_in_them(tmp_path):
    mono = copy(tmp_path / "mono", ("claude-code",))
    before = snapshot(mono)
    cmd = ("if [ -d lib/_vendor ]; then mkdir lib/_vendor/__pycache__ && : > lib/_vendor/__pycache__/x.pyc; "
           "exit 1; fi")
    r = run("fix", "--no-config", "--apply", "--runtime-dir", "_vendor", "--verify", cmd, ".", cwd=mono, env=ENV)
    assert r.returncode == 1, r.stderr
    assert snapshot(mono) == before


def test_timeout_and_leftover_processes_are_killed(tmp_path):
    mono = copy(tmp_path / "mono", ("claude-code",))
    before = snapshot(mono)
    pidfile = tmp_path / "pid"
    # Before the fix: leave a sleeper behind and pass. After: hang.
    cmd = (f"if [ -e lib/lockrt.py ]; then exec sleep 600; fi; "
           f"sleep 600 & echo $! > {pidfile}; exit 0")
    r = run("fix", "--no-config", "--apply", "--verify", cmd, "--verify-timeout", "2", ".", cwd=mono, env=ENV,
            timeout=120)
    assert r.returncode == 1, r.stderr
    assert "lockfix: verify claude-code after the fix: timed out after 2 s" in r.stderr
    assert "rolled back: the verify command failed after the fixes (timed out after 2 s)" in r.stderr
    assert snapshot(mono) == before
    pid = int(pidfile.read_text())
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except FileNotFoundError:
        state = "gone"
    assert state in ("gone", "Z"), state  # a zombie is dead, waiting for its reaper


@pytest.mark.parametrize("args, message", [
    (["--verify", "true"], "lockfix fix: --verify runs the command on the fixed files: it needs --apply\n"),
    (["--diff", "--verify", "true"], "lockfix fix: --verify runs the command on the fixed files: it needs --apply\n"),
    (["--apply", "--verify"], "lockfix fix: --verify needs a shell command, got ''\n"),
    (["--apply", "--verify", "true", "--verify-timeout", "0"],
     "lockfix fix: --verify-timeout needs a number of seconds (1 to 604800), got '0'\n"),
    (["--apply", "--verify", "true", "--verify-timeout", "1s"],
     "lockfix fix: --verify-timeout needs a number of seconds (1 to 604800), got '1s'\n"),
])
def test_usage_errors(tmp_path, args, message):
    mono = copy(tmp_path / "mono", ("claude-code",))
    before = snapshot(mono)
    r = run("fix", "--no-config", ".", *args, cwd=mono, env=ENV)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", message)
    assert snapshot(mono) == before


def test_the_installed_lockfix_cannot_load_the_test_generator(tmp_path):
    r = run("scan", "--no-config", "--rules", RULES, str(tmp_path))
    assert r.returncode == 2
    assert 'unknown fix generator "test_off_by_one"' in r.stderr
