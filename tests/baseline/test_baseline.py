"""`lockfix scan --baseline FILE` / `--write-baseline FILE`: a tree with old
findings (a copy of the cline fixture's lib: LF201, LF401 and two LF104 without
a safe fix) adopts the lint gradually. Moving the code and renaming an
unrelated variable keep the old findings recorded; only a new finding is
reported and fails. The fingerprint the baseline matches on is the one SARIF
publishes in partialFingerprints, and that SARIF passes Microsoft's validator.
"""
import json
import os
import shutil
import subprocess

import pytest

from lfcli import SOURCE_DIR, parse_json, parse_sarif, parse_text, run
from sarif_multitool import multitool, validate

CLINE_LIB = SOURCE_DIR / "fixtures" / "integrations" / "cline" / "lib"
OLD = [("lib/state.py", "LF201"), ("lib/state.py", "LF401"), ("lib/turns.py", "LF104"), ("lib/turns.py", "LF104")]
NEW_FUNCTION = '''

def remember_model(session_id, model):
    models = read_state("models", {})
    models[session_id] = model
    write_state("models", models)
'''


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(CLINE_LIB, root / "lib")
    return root


def scan(tree, *args):
    return run("scan", "--no-config", *args, ".", cwd=tree)


def record(tree):
    r = scan(tree, "--write-baseline", "baseline.json")
    assert r.returncode == 0, r.stderr
    assert "lockfix: wrote baseline baseline.json (4 findings)" in r.stderr
    return json.loads((tree / "baseline.json").read_text())


def edit(path, old, new, count=1):
    text = path.read_text()
    assert text.count(old) == count, (path, old)
    path.write_text(text.replace(old, new))


def move_code(tree):
    """New lines above every finding, and state.py's functions reordered."""
    edit(tree / "lib" / "turns.py", "from .state import read_state, write_state\n",
         "from .state import read_state, write_state\n\nRETRIES = 3\n\n\ndef retries():\n    return RETRIES\n")
    state = tree / "lib" / "state.py"
    text = state.read_text()
    head, sep, rest = text.partition("\ndef ")
    funcs = ("def " + rest).split("\n\n\ndef ")
    funcs = [funcs[0]] + ["def " + f for f in funcs[1:]]
    state.write_text(head + "\n# moved around\n\n" + "\n\n\n".join(reversed(funcs)))


def rename_unrelated_variable(tree):
    """`tasks` lives in the same function as an LF104 finding, outside the flagged call."""
    turns = tree / "lib" / "turns.py"
    edit(turns, "    tasks = read_state", "    pending = read_state")
    edit(turns, "    tasks.setdefault", "    pending.setdefault")
    edit(turns, 'write_state("tasks", tasks)', 'write_state("tasks", pending)')


def add_new_finding(tree):
    with open(tree / "lib" / "turns.py", "a") as f:
        f.write(NEW_FUNCTION)


def lines_of(tree):
    return sorted((p, line, rule) for p, line, _col, rule in parse_json(scan(tree, "--format", "json").stdout))


def test_write_baseline_records_every_finding_and_exits_0(tree):
    doc = record(tree)
    assert doc["lockfix_baseline"] == 1
    assert [(f["path"], f["rule_id"]) for f in doc["findings"]] == OLD
    r = scan(tree, "--format", "json")
    assert r.returncode == 1
    assert [f["fingerprint"] for f in json.loads(r.stdout)["findings"]] == [f["fingerprint"] for f in doc["findings"]]
    r = scan(tree, "--baseline", "baseline.json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("No findings in 3 files.")
    assert r.stderr == "lockfix: baseline baseline.json: 4 recorded findings not reported\n"


@pytest.mark.parametrize("change", [move_code, rename_unrelated_variable])
def test_old_findings_stay_recorded_after(tree, change):
    record(tree)
    before = lines_of(tree)
    change(tree)
    if change is move_code:  # the edit really moved every finding
        after = lines_of(tree)
        assert sorted((p, r) for p, _l, r in after) == sorted((p, r) for p, _l, r in before)
        assert not set(after) & set(before), (before, after)
    r = scan(tree, "--baseline", "baseline.json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "4 recorded findings not reported\n" in r.stderr


def test_only_the_new_finding_fails(tree, tmp_path):
    record(tree)
    move_code(tree)
    rename_unrelated_variable(tree)
    add_new_finding(tree)
    assert len(lines_of(tree)) == 5  # without the baseline: the 4 old ones and the new one
    new_line = (tree / "lib" / "turns.py").read_text().splitlines().index(
        '    models = read_state("models", {})') + 1
    want = [("lib/turns.py", new_line, 14, "LF104")]
    r = scan(tree, "--baseline", "baseline.json")
    assert r.returncode == 1
    assert parse_text(r.stdout) == want
    assert r.stderr == "lockfix: baseline baseline.json: 4 recorded findings not reported\n"
    r = scan(tree, "--baseline", "baseline.json", "--format", "json")
    assert r.returncode == 1 and parse_json(r.stdout) == want
    assert json.loads(r.stdout)["summary"]["failing"] == 1
    sarif = tmp_path / "new.sarif"
    r = scan(tree, "--baseline", "baseline.json", "--format", "sarif", "-o", sarif)
    assert r.returncode == 1
    assert parse_sarif(sarif.read_text()) == want
    validate(sarif, tmp_path)
    # --fail-on still applies to what is left: the new LF104 is a warning.
    assert scan(tree, "--baseline", "baseline.json", "--fail-on", "error").returncode == 0


def test_sarif_carries_the_baseline_fingerprint_next_to_the_line_hash(tree, tmp_path):
    doc = record(tree)
    sarif = tmp_path / "all.sarif"
    assert scan(tree, "--format", "sarif", "-o", sarif).returncode == 1
    validate(sarif, tmp_path)
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert [r["partialFingerprints"]["lockfixFingerprint/v1"] for r in results] == \
        [f["fingerprint"] for f in doc["findings"]]
    assert all(set(r["partialFingerprints"]) == {"lockfixFingerprint/v1", "lockfixLineHash/v1"} for r in results)
    # The fingerprints do not depend on the line: after the moves they are unchanged.
    move_code(tree)
    moved = tmp_path / "moved.sarif"
    scan(tree, "--format", "sarif", "-o", moved)
    moved_results = json.loads(moved.read_text())["runs"][0]["results"]
    assert sorted(r["partialFingerprints"]["lockfixFingerprint/v1"] for r in moved_results) == \
        sorted(f["fingerprint"] for f in doc["findings"])


def test_the_multitool_result_matching_agrees(tree, tmp_path):
    """SARIF's own result matching (Sarif.Multitool match-results-forward, which
    reads partialFingerprints) sees the same thing: one result is new."""
    before, after, matched = tmp_path / "before.sarif", tmp_path / "after.sarif", tmp_path / "matched.sarif"
    scan(tree, "--format", "sarif", "-o", before)
    move_code(tree)
    rename_unrelated_variable(tree)
    add_new_finding(tree)
    scan(tree, "--format", "sarif", "-o", after)
    p = subprocess.run([str(multitool()), "match-results-forward", str(after), "--previous", str(before),
                        "--output-file-path", str(matched), "--log", "ForceOverwrite"],
                       capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1"))
    assert p.returncode == 0, p.stdout + p.stderr
    states = [r["baselineState"] for r in json.loads(matched.read_text())["runs"][0]["results"]]
    assert states.count("new") == 1 and len(states) == 5, states


def test_editing_the_flagged_code_makes_it_new(tree):
    """The fingerprint has teeth: a changed finding is reported again, and the
    entry it replaces is counted as no longer found."""
    record(tree)
    edit(tree / "lib" / "turns.py", 'counts = read_state("turns", {})', 'counts = read_state("turns", dict())')
    r = scan(tree, "--baseline", "baseline.json")
    assert r.returncode == 1
    assert [(p, rule) for p, _l, _c, rule in parse_text(r.stdout)] == [("lib/turns.py", "LF104")]
    assert r.stderr == ("lockfix: baseline baseline.json: 3 recorded findings not reported; "
                        "1 recorded finding no longer found (--write-baseline drops it)\n")


def test_a_second_identical_finding_in_the_same_function_is_new(tree):
    record(tree)
    edit(tree / "lib" / "turns.py", '    counts = read_state("turns", {})\n',
         '    counts = read_state("turns", {})\n    again = read_state("turns", {})\n'
         '    again[session_id] = 0\n    write_state("turns", again)\n')
    r = scan(tree, "--baseline", "baseline.json", "--format", "json")
    assert r.returncode == 1
    found = json.loads(r.stdout)["findings"]
    assert [(f["rule_id"], f["line"]) for f in found] == [("LF104", 8)]
    assert found[0]["fingerprint"].endswith(":2")


def test_write_and_check_in_one_run_rewrites_the_baseline(tree):
    record(tree)
    add_new_finding(tree)
    r = scan(tree, "--baseline", "baseline.json", "--write-baseline", "baseline.json")
    assert r.returncode == 0
    assert len(parse_text(r.stdout)) == 1  # the report still shows what was new
    assert "wrote baseline baseline.json (5 findings)" in r.stderr
    assert scan(tree, "--baseline", "baseline.json").returncode == 0


@pytest.mark.parametrize("content, message", [
    (None, "lockfix: missing.json: cannot open baseline: No such file or directory\n"),
    ("{\n  \"lockfix_baseline\": 1,\n  \"findings\": [\n", "lockfix: missing.json:4: not a lockfix baseline: invalid JSON\n"),
    ("[]\n", "lockfix: missing.json:1: not a lockfix baseline: expected an object with \"lockfix_baseline\": 1 "
             "(written by `lockfix scan --write-baseline`)\n"),
    ('{"lockfix_baseline": 7, "findings": []}\n',
     "lockfix: missing.json:1: baseline format 7 is not supported (lockfix {version} reads format 1)\n"),
    ('{"lockfix_baseline": 1,\n "findings": [\n  {"fingerprint": "a:1"},\n  {"rule_id": "LF101"}\n ]\n}\n',
     "lockfix: missing.json:4: findings[1]: expected an object with a \"fingerprint\" string\n"),
])
def test_a_bad_baseline_is_a_usage_error(tree, content, message):
    if content is not None:
        (tree / "missing.json").write_text(content)
    r = scan(tree, "--baseline", "missing.json")
    assert r.returncode == 2
    assert r.stdout == ""
    version = run("--version").stdout.split()[1]
    assert r.stderr == message.replace("{version}", version)


def test_an_unwritable_baseline_is_an_error(tree):
    r = scan(tree, "--write-baseline", "no/such/dir/baseline.json")
    assert r.returncode == 2
    assert r.stdout == ""
    assert "no/such/dir/baseline.json" in r.stderr
    assert scan(tree, "--baseline").returncode == 2
    assert scan(tree, "--write-baseline=").returncode == 2
