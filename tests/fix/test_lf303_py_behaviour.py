"""What the Python LF303 fix changes, run for real: each fixed case's function
is called before and after `lockfix fix --apply` with os.kill standing in for
the three outcomes of kill(pid, 0): success, ProcessLookupError (ESRCH) and
PermissionError (EPERM). After the fix EPERM gets exactly what success gets,
and success and ESRCH get exactly what they got before. (A stand-in for
os.kill, because EPERM needs a process of another user, and the tests also
run as root, whose kill() never fails with EPERM.)"""

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import SRC, lockfix

CASES_DIR = os.path.join(SRC, "tests", "fix", "cases")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

# case -> the call to make on the module `m`, returning something comparable.
CALLS = {
    "lf303_return_in_try": "m.owner_alive(4242)",
    "lf303_falls_through": "m.break_if_dead(4242)",
    "lf303_dedicated_clause": "m.Owner(4242).alive()",
    "lf303_else_return": "m.alive(4242)",
    "lf303_else_more": "m.alive(4242)",
    "lf303_statements_before": "m.holder_state('4242')",
}

DRIVER = r"""
import importlib.util, json, os, sys
outcome = sys.argv[2]
def fake_kill(pid, sig):
    assert sig == 0
    if outcome == "eperm":
        raise PermissionError(1, "Operation not permitted")
    if outcome == "esrch":
        raise ProcessLookupError(3, "No such process")
removed = []
os.kill = fake_kill
os.unlink = lambda p: removed.append(p)
spec = importlib.util.spec_from_file_location("case", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
result = eval(sys.argv[3])
print(json.dumps([result, removed]))
"""


def outcomes(path, call):
    out = {}
    for outcome in ("ok", "esrch", "eperm"):
        proc = subprocess.run([PYTHON, "-c", DRIVER, str(path), outcome, call], capture_output=True, check=True)
        out[outcome] = json.loads(proc.stdout)
    return out


@pytest.mark.parametrize("case", sorted(CALLS))
def test_eperm_reads_as_alive_and_nothing_else_changes(tmp_path, case):
    src = tmp_path / (case + ".py")
    shutil.copy(os.path.join(CASES_DIR, case + ".py.in"), src)
    before = outcomes(src, CALLS[case])
    assert before["eperm"] == before["esrch"], "the case must misread EPERM before the fix"
    assert before["eperm"] != before["ok"]
    proc = lockfix(["fix", src.name, "--apply"], tmp_path)
    assert proc.returncode == 0, proc.stderr.decode()
    subprocess.run([PYTHON, "-m", "py_compile", str(src)], check=True)
    after = outcomes(src, CALLS[case])
    assert after["ok"] == before["ok"]
    assert after["esrch"] == before["esrch"]
    assert after["eperm"] == before["ok"]
