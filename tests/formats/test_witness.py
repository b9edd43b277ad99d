"""Witnesses (issue 22): every finding in fixtures/ (and in the rules' cases) carries the interleaving
that loses data, each step checked against the file by scripts/witness_check.py
(the line exists, its source is the event's kind, the finding's own line is a
step); SARIF carries it as codeFlows the multitool accepts; and the witness is
never part of a finding's identity (fingerprints, baselines)."""
import copy
import importlib.util
import json
import re

import pytest

from lfcli import SOURCE_DIR, run
from sarif_multitool import validate

spec = importlib.util.spec_from_file_location("witness_check", SOURCE_DIR / "scripts" / "witness_check.py")
witness_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(witness_check)

RULES = {"LF101", "LF103", "LF104", "LF201", "LF301", "LF302", "LF303", "LF401"}


def scan(*args, cwd=SOURCE_DIR):
    r = run("scan", "--no-config", *args, cwd=cwd)
    assert r.returncode == 1, r.stderr
    return r.stdout


def fixture_findings():
    return json.loads(scan("--format", "json", "fixtures"))["findings"]


def read(rel):
    return (SOURCE_DIR / rel).read_text(encoding="utf-8")


@pytest.mark.parametrize("tree", ["fixtures", "tests/rules/cases"])
def test_every_finding_has_a_witness_true_to_the_file(tree):
    """fixtures/ and the rules' own cases (every shape each check knows)."""
    findings = json.loads(scan("--format", "json", tree))["findings"]
    assert {f["rule_id"] for f in findings} == RULES
    n, problems = witness_check.check(findings, read=read)
    assert n == len(findings) and problems == []
    for f in findings:
        w = f["witness"]
        assert w["platform"] and w["outcome"]
        assert {s["process"] for s in w["steps"]} <= {"A", "B", "C"}


def test_the_check_has_teeth():
    """A witness moved one line, given the wrong kind of event, or missing is caught."""
    findings = fixture_findings()
    lf104 = next(f for f in findings if f["rule_id"] == "LF104" and f["path"].endswith(".py"))
    moved = copy.deepcopy(lf104)
    for s in moved["witness"]["steps"]:
        s["line"] += 1
        s["end_line"] += 1
    wrong = copy.deepcopy(lf104)
    wrong["witness"]["steps"][0]["event"] = "probe"
    gone = copy.deepcopy(lf104)
    del gone["witness"]
    for bad in (moved, wrong, gone):
        n, problems = witness_check.check([bad], read=read)
        assert problems, bad.get("witness")


def test_lf104_witness_is_the_read_and_the_write():
    """fixtures/integrations/cline/lib/turns.py: the read on line 7, the write back on line 9."""
    f = next(f for f in fixture_findings() if f["path"] == "fixtures/integrations/cline/lib/turns.py" and
             f["line"] == 7)
    w = f["witness"]
    assert w["platform"] == "any platform"
    assert [(s["process"], s["event"], s["line"]) for s in w["steps"]] == [
        ("A", "read", 7), ("B", "read", 7), ("A", "write", 9), ("B", "write", 9)]
    assert w["outcome"].startswith("A's update is lost")


def test_sarif_code_flows_point_at_the_steps(tmp_path):
    out = tmp_path / "fixtures.sarif"
    run("scan", "--no-config", "--format", "sarif", "--output", out, "fixtures", cwd=SOURCE_DIR)
    results = json.loads(out.read_text())["runs"][0]["results"]
    findings = fixture_findings()
    assert len(results) == len(findings)
    for res, f in zip(results, findings):
        steps = f["witness"]["steps"]
        flows = res["codeFlows"]
        assert len(flows) == 2
        per, whole = flows
        # one thread flow per process with steps, in A, B, C order
        procs = sorted({s["process"] for s in steps})
        assert [t["id"] for t in per["threadFlows"]] == [f"process {p}" for p in procs]
        got = {}
        for t in per["threadFlows"]:
            for loc in t["locations"]:
                got[loc["executionOrder"]] = (t["id"][-1], loc)
        assert sorted(got) == list(range(1, len(steps) + 1))
        for i, s in enumerate(steps, 1):
            proc, loc = got[i]
            region = loc["location"]["physicalLocation"]["region"]
            assert proc == s["process"] and loc["kinds"] == [s["event"]]
            assert (region["startLine"], region["startColumn"], region["endLine"], region["endColumn"]) == (
                s["line"], s["column"], s["end_line"], s["end_column"])
            assert loc["location"]["message"]["text"] == f"{i}. {s['process']}: {s['message']}"
        # the whole interleaving as one thread flow, in execution order
        (one,) = whole["threadFlows"]
        assert [l["executionOrder"] for l in one["locations"]] == list(range(1, len(steps) + 1))
        assert res["properties"]["witnessPlatform"] == f["witness"]["platform"]
    validate(out, tmp_path)


def test_sarif_related_locations_are_the_other_places_of_the_witness(tmp_path):
    """relatedLocations: each distinct step region other than the finding's own,
    once, in first-step order, numbered from 1, "event: text"."""
    out = tmp_path / "fixtures.sarif"
    run("scan", "--no-config", "--format", "sarif", "--output", out, "fixtures", cwd=SOURCE_DIR)
    results = json.loads(out.read_text())["runs"][0]["results"]
    findings = fixture_findings()
    with_related = 0
    for res, f in zip(results, findings):
        own = (f["line"], f["column"], f["end_line"], f["end_column"])
        want, seen = [], set()
        for s in f["witness"]["steps"]:
            place = (s["line"], s["column"], s["end_line"], s["end_column"])
            if place != own and place not in seen:
                seen.add(place)
                want.append((place, "%s: %s" % (s["event"], s["message"])))
        got = [((r["physicalLocation"]["region"]["startLine"], r["physicalLocation"]["region"]["startColumn"],
                 r["physicalLocation"]["region"]["endLine"], r["physicalLocation"]["region"]["endColumn"]),
                r["message"]["text"]) for r in res.get("relatedLocations", [])]
        assert got == want, f["path"]
        assert [r["id"] for r in res.get("relatedLocations", [])] == list(range(1, len(want) + 1))
        with_related += bool(want)
    assert with_related > 0
    lf104 = next(r for r, f in zip(results, findings)
                 if f["path"] == "fixtures/integrations/cline/lib/turns.py" and f["line"] == 7)
    assert [(r["physicalLocation"]["region"]["startLine"], r["message"]["text"].split(":")[0])
            for r in lf104["relatedLocations"]] == [(9, "write")]
    sarif = json.loads(scan("--no-witness", "--format", "sarif", "fixtures"))
    assert all("relatedLocations" not in r for r in sarif["runs"][0]["results"])
    validate(out, tmp_path)


def test_no_witness_leaves_it_out_of_every_format():
    text = scan("--no-witness", "fixtures")
    assert "= witness" not in text
    assert "= witness (" in scan("fixtures")
    assert all("witness" not in f for f in json.loads(scan("--no-witness", "--format", "json", "fixtures"))["findings"])
    sarif = json.loads(scan("--no-witness", "--format", "sarif", "fixtures"))
    assert all("codeFlows" not in r for r in sarif["runs"][0]["results"])


def test_the_witness_is_not_part_of_the_fingerprint(tmp_path):
    with_w = json.loads(scan("--format", "json", "fixtures"))["findings"]
    without = json.loads(scan("--no-witness", "--format", "json", "fixtures"))["findings"]
    assert [f["fingerprint"] for f in with_w] == [f["fingerprint"] for f in without]
    fps = [json.loads(scan(*a, "--format", "sarif", "fixtures"))["runs"][0]["results"] for a in ((), ("--no-witness",))]
    assert [r["partialFingerprints"] for r in fps[0]] == [r["partialFingerprints"] for r in fps[1]]
    # a baseline written without witnesses is byte-identical, and matches every finding that has one
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path, extra in ((a, ()), (b, ("--no-witness",))):
        r = run("scan", "--no-config", *extra, "--write-baseline", path, "fixtures", cwd=SOURCE_DIR)
        assert r.returncode == 0, r.stderr
    assert a.read_bytes() == b.read_bytes()
    r = run("scan", "--no-config", "--baseline", b, "--format", "json", "fixtures", cwd=SOURCE_DIR)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["findings"] == []


def explain_parts(rule):
    """(example lines, [(process, line, column, text)], outcomes) of `lockfix explain RULE`."""
    r = run("explain", rule)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    start = lines.index("Example") + 1
    end = lines.index("Witness (how the example loses data)")
    example = [l[4:] for l in lines[start:end]]
    while example and not example[-1]:
        example.pop()
    steps, outcomes = [], []
    for l in lines[end:lines.index("Use instead")]:
        m = re.match(r"\s+\d+\. ([ABC])  L(\d+):(\d+)\s+(.*)$", l)
        if m:
            steps.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
        elif l.strip().startswith("=> "):
            outcomes.append(l.strip()[3:])
    return example, steps, outcomes


def test_explain_shows_a_witness_on_the_rules_example():
    """Each rule's example is flagged, and `explain` shows its witness: every
    step's line and column point into the example at the code the step names."""
    for rule in sorted(RULES):
        example, steps, outcomes = explain_parts(rule)
        assert steps and outcomes, rule
        for proc, line, col, text in steps:
            assert 1 <= line <= len(example), (rule, line)
            code = example[line - 1][col - 1:]
            shown = text[:-3] if text.endswith("...") else text
            tails = [shown[i + 2:] for i in range(len(shown)) if shown.startswith(": ", i)]
            assert any(t and code.startswith(t) for t in tails), (rule, line, code, text)
