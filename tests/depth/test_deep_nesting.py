"""Hostile nesting, 100k levels deep, through the whole CLI with fixes on.

`lockfix scan` always runs the fix generators (to count fixable findings), so
every case here goes through the checks and the fixes of every rule: each rule's
site (deep_cases.PY_SITES) carries a 100k-deep construct inside the function its
check walks, and, for the fixable rules, between the statements its fix relates.
TS and TSX get the same constructs under a test rule (rules/LF950), so their
grammars are parsed and queried too.

Nothing may crash (a signal, no report) and every site keeps its finding at its
line. Past the engine's query depth limit (1000) the file is reported as
partially analyzed: on stderr, in the JSON summary and list, in SARIF and in the
GitHub annotations. No timing asserts: ctest's TIMEOUT is the hang guard.

LOCKFIX_DEEP_QUICK=1 (set for the sanitizer build, where each file costs ~4x)
runs a rotation that still covers every rule, every construct and both grammars.
"""
import json
import os
import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import deep_cases  # noqa: E402

BIN = os.environ.get("LOCKFIX_BIN", "")
HERE = pathlib.Path(__file__).resolve().parent
RULES = HERE / "rules"
QUICK = os.environ.get("LOCKFIX_DEEP_QUICK") == "1"

# Where each site's findings are (rule, line): the deep constructs sit on one
# line, so the lines do not depend on the depth.
EXPECTED = {
    "LF101": {("LF101", 9)},
    "LF104": {("LF104", 2)},
    "LF201": {("LF201", 7)},
    "LF301": {("LF301", 11), ("LF302", 10)},
    "LF302": {("LF302", 8)},
    "LF303": {("LF303", 7)},
    "LF401": {("LF401", 5)},
    # TS/TSX: the test rule, and the built-in LF104 on the site's JSON
    # read-modify-write (its `wx` create is not handled, so it is no lock).
    None: {("LF950", 8), ("LF104", 6)},
}
FIXABLE = {"LF101", "LF201", "LF401"}


def select_cases():
    cases = list(deep_cases.py_cases()) + list(deep_cases.ts_cases())
    if not QUICK:
        return cases
    # Every rule with two constructs, every construct with some rule, the
    # 200k-deep copies, and the TS/TSX files.
    kinds = list(deep_cases.PY_DEEP)
    rules = list(deep_cases.PY_SITES)
    keep = set()
    for i, rule in enumerate(rules):
        keep.add(f"{rule}_{kinds[i % len(kinds)]}.py")
        keep.add(f"{rule}_{kinds[(i + len(rules)) % len(kinds)]}.py")
    for j, kind in enumerate(kinds):
        keep.add(f"{rules[j % len(rules)]}_{kind}.py")
    keep.add("LF101_both_copies_200k.py")
    return [c for c in cases if c[0] in keep or c[1] is None]


CASES = select_cases()


def run(*args, cwd, timeout=900):
    if not BIN:
        raise RuntimeError("LOCKFIX_BIN is not set (run through ctest)")
    r = subprocess.run([BIN, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert r.returncode >= 0, f"lockfix died of signal {-r.returncode}: {r.stderr[-2000:]}"
    return r


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("deep")
    for name, _rule, text in CASES:
        (root / name).write_text(text)
    return root


@pytest.fixture(scope="module")
def scan_json(tree):
    r = run("scan", "--no-config", "--rules", RULES, "--format", "json", ".", cwd=tree)
    assert r.returncode == 1, r.stderr[-2000:]
    return json.loads(r.stdout), r.stderr


def test_every_site_found_with_fixes_on(scan_json):
    report, _ = scan_json
    got = {}
    for f in report["findings"]:
        got.setdefault(pathlib.Path(f["path"]).name, set()).add((f["rule_id"], f["line"]))
    for name, rule, _ in CASES:
        assert got.get(name) == EXPECTED[rule], name
    assert report["summary"]["files_scanned"] == len(CASES)
    assert report["summary"]["files_skipped"] == 0


def test_fixes_generated_on_deep_sites(scan_json):
    """The fix generators ran on every fixable site and produced an edit."""
    report, _ = scan_json
    fixable = [f for f in report["findings"] if f["rule_id"] in FIXABLE]
    assert fixable
    for f in fixable:
        assert f["fix"]["available"], (f["path"], f["rule_id"], f["fix"].get("reason"))
        assert f["fix"]["edits"], f["path"]


def test_partial_analysis_reported(scan_json):
    report, stderr = scan_json
    names = sorted(pathlib.Path(p["path"]).name for p in report["partial"])
    assert names == sorted(c[0] for c in CASES)
    assert report["summary"]["files_partial"] == len(CASES)
    for p in report["partial"]:
        assert "nested more than 1000 levels deep" in p["reason"]
    for name, _, _ in CASES:
        assert f"lockfix: {name}: partially analyzed: syntax nested more than 1000 levels deep" in stderr


def test_partial_in_text_sarif_github(tree):
    one = CASES[0][0]
    r = run("scan", "--no-config", one, cwd=tree)
    assert r.returncode == 1
    assert r.stdout.rstrip().endswith("; 1 file partially analyzed")
    assert f"lockfix: {one}: partially analyzed" in r.stderr
    r = run("scan", "--no-config", "--format", "sarif", one, cwd=tree)
    notes = json.loads(r.stdout)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["properties"].get("partiallyAnalyzed") for n in notes] == [True]
    assert one in notes[0]["message"]["text"]
    r = run("scan", "--no-config", "--format", "github", one, cwd=tree)
    assert f"::warning file={one},title=lockfix partial analysis::partially analyzed" in r.stdout


def test_shallow_file_not_partial(tmp_path):
    """Below the limit nothing is reported as partial (999 nested parentheses)."""
    text = deep_cases.PY_SITES["LF401"].replace("{DEEP}", deep_cases.PY_DEEP["parens"](900))
    (tmp_path / "shallow.py").write_text(text)
    r = run("scan", "--no-config", "--format", "json", "shallow.py", cwd=tmp_path)
    report = json.loads(r.stdout)
    assert report["partial"] == [] and report["summary"]["files_partial"] == 0
    assert "partially analyzed" not in r.stderr


def test_fix_diff_and_apply(tree, tmp_path):
    # The scan above already ran every fix generator on every case; writing the
    # patches is checked on a rotation (each fixable rule with three constructs,
    # plus the 200k-deep copies) to keep the suite's time down.
    kinds = list(deep_cases.PY_DEEP)
    keep = {"LF101_both_copies_200k.py"}
    for i, rule in enumerate(sorted(FIXABLE)):
        for k in range(3):
            keep.add(f"{rule}_{kinds[(3 * i + k) % len(kinds)]}.py")
    fixable = [c for c in CASES if c[1] in FIXABLE and c[0] in keep]
    work = tmp_path / "apply"
    work.mkdir()
    for name, _rule, text in fixable:
        (work / name).write_text(text)
    names = [c[0] for c in fixable]
    r = run("fix", "--no-config", "--diff", *names, cwd=work)
    assert r.returncode == 0, r.stderr[-2000:]
    for name in names:
        assert f"+++ b/{name}" in r.stdout, name
    r = run("fix", "--no-config", "--apply", *names, cwd=work)
    assert r.returncode == 0, r.stderr[-2000:]
    # The patched files still parse and the fixed findings are gone.
    r = run("scan", "--no-config", "--format", "json", "--select", "LF101,LF201,LF401", *names, cwd=work)
    report = json.loads(r.stdout)
    assert report["summary"]["files_skipped"] == 0
    assert report["findings"] == [], [(f["path"], f["rule_id"]) for f in report["findings"]]
