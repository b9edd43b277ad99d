"""The GitHub Action (action.yml), its steps run locally by run_action.py with
the inputs a workflow would give, on a workspace holding the fixture
integrations. The first run builds lockfix and saves it in the (local) cache;
the others restore it. Checked: the SARIF is valid (Microsoft's multitool), the
file the upload step sends is the one the scan wrote, the job fails exactly
per fail-on, and the baseline is honoured."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from lfcli import SOURCE_DIR, parse_json, parse_sarif, run
from sarif_multitool import validate

RUNNER = pathlib.Path(__file__).resolve().parent / "run_action.py"
INTEGRATIONS = SOURCE_DIR / "fixtures" / "integrations"
NEW_FINDING = '''

def remember_model(session_id, model):
    models = read_state("models", {})
    models[session_id] = model
    write_state("models", models)
'''


def run_action(workspace, runner_dir, result, **inputs):
    args = [sys.executable, str(RUNNER), "--action-dir", str(SOURCE_DIR), "--workspace", str(workspace),
            "--runner-dir", str(runner_dir), "--result", str(result)]
    for k, v in inputs.items():
        args += ["--input", f"{k.replace('_', '-')}={v}"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=1800)
    doc = json.loads(result.read_text())
    assert p.returncode == (0 if doc["conclusion"] == "success" else 1), p.stdout + p.stderr
    doc["log"] = p.stdout
    return doc


def outcomes(doc):
    return {s["name"]: s["outcome"] for s in doc["steps"]}


def step(doc, name):
    return next(s for s in doc["steps"] if s["name"] == name)


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    """The runner's directories (tool cache, cache store) and the first run, which builds."""
    base = tmp_path_factory.mktemp("action")
    ws = base / "first-ws"
    shutil.copytree(INTEGRATIONS, ws)
    doc = run_action(ws, base / "runner", base / "first.json")
    return base / "runner", ws, doc


@pytest.fixture
def workspace(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(INTEGRATIONS, ws)
    return ws


def sarif_results(path):
    return parse_sarif(pathlib.Path(path).read_text())


def expected(workspace, *paths):
    return parse_json(run("scan", "--format", "json", *(paths or (".",)), cwd=workspace).stdout)


def test_first_run_builds_caches_scans_uploads_and_fails_on_the_findings(runner, tmp_path):
    runner_dir, ws, doc = runner
    assert outcomes(doc) == {
        "lockfix build key": "success",
        "Restore the lockfix build": "success",
        "Install lockfix's build dependencies": "success",
        "Build lockfix": "success",
        "Save the lockfix build": "success",
        "Install lockfix's runtime dependencies": "skipped",
        "lockfix scan": "success",
        "Upload the SARIF to code scanning": "success",
        "Fail on findings at or above fail-on": "failure",
    }, doc["log"]
    assert step(doc, "Restore the lockfix build")["note"].startswith("no cache for lockfix-Linux-X64-")
    assert doc["outputs"] == {"sarif-file": "lockfix.sarif", "exit-code": "1"}
    # The file uploaded is the one the scan wrote, in the workspace.
    [upload] = doc["uploads"]
    assert upload["sarif_file"] == "lockfix.sarif"
    assert upload["resolved"] == str((ws / "lockfix.sarif").resolve())
    assert upload["category"] == "lockfix"
    assert pathlib.Path(upload["copy"]).read_bytes() == (ws / "lockfix.sarif").read_bytes()
    validate(pathlib.Path(upload["copy"]), tmp_path)
    assert sarif_results(upload["copy"]) == expected(ws)
    assert len(sarif_results(upload["copy"])) == 27
    # Each result carries its witness as code flows (code scanning's "Show paths"):
    # one thread flow per process, and the whole interleaving as one.
    for res in json.loads(pathlib.Path(upload["copy"]).read_text())["runs"][0]["results"]:
        per, whole = res["codeFlows"]
        assert per["threadFlows"] and all(t["id"].startswith("process ") and t["locations"] for t in per["threadFlows"])
        assert [l["executionOrder"] for l in whole["threadFlows"][0]["locations"]] == list(
            range(1, 1 + sum(len(t["locations"]) for t in per["threadFlows"])))
    # The readable report is in the log too, with the witnesses.
    assert "= witness (" in step(doc, "lockfix scan")["stdout"]
    assert "Found 27 findings (17 errors, 10 warnings) in 9 files" in step(doc, "lockfix scan")["stdout"]


def test_a_later_run_restores_the_build_instead_of_building(runner, workspace, tmp_path):
    runner_dir, _, _ = runner
    doc = run_action(workspace, runner_dir, tmp_path / "r.json")
    o = outcomes(doc)
    assert step(doc, "Restore the lockfix build")["note"].startswith("restored lockfix-Linux-X64-")
    assert (o["Install lockfix's build dependencies"], o["Build lockfix"], o["Save the lockfix build"]) == \
        ("skipped",) * 3
    assert o["Install lockfix's runtime dependencies"] == "success"
    assert o["lockfix scan"] == "success" and doc["outputs"]["exit-code"] == "1"
    assert sarif_results(doc["uploads"][0]["copy"]) == expected(workspace)


@pytest.mark.parametrize("fail_on, conclusion, exit_code", [
    ("error", "success", "0"),
    ("warning", "failure", "1"),
    ("info", "failure", "1"),
    ("never", "success", "0"),
    ("", "failure", "1"),  # the configuration's fail_on, default warning
])
def test_the_job_fails_per_fail_on(runner, workspace, tmp_path, fail_on, conclusion, exit_code):
    """cline/lib/turns.py has two warnings (LF104) and no error."""
    runner_dir, _, _ = runner
    doc = run_action(workspace, runner_dir, tmp_path / "r.json", paths="cline/lib/turns.py", fail_on=fail_on)
    assert doc["conclusion"] == conclusion, doc["log"]
    assert doc["outputs"]["exit-code"] == exit_code
    # Uploaded whatever the outcome, with both findings.
    assert [r[3] for r in sarif_results(doc["uploads"][0]["copy"])] == ["LF104", "LF104"]
    assert outcomes(doc)["Fail on findings at or above fail-on"] == ("success" if exit_code == "0" else "failure")


def test_the_baseline_is_honoured(runner, workspace, tmp_path):
    runner_dir, _, _ = runner
    r = run("scan", "--write-baseline", "lockfix-baseline.json", ".", cwd=workspace)
    assert r.returncode == 0, r.stderr
    doc = run_action(workspace, runner_dir, tmp_path / "old.json", baseline="lockfix-baseline.json")
    assert doc["conclusion"] == "success", doc["log"]
    assert sarif_results(doc["uploads"][0]["copy"]) == []
    assert "27 recorded findings not reported" in step(doc, "lockfix scan")["stderr"]

    with open(workspace / "cline" / "lib" / "turns.py", "a") as f:
        f.write(NEW_FINDING)
    doc = run_action(workspace, runner_dir, tmp_path / "new.json", baseline="lockfix-baseline.json")
    assert doc["conclusion"] == "failure"
    assert doc["outputs"]["exit-code"] == "1"
    [(path, line, _col, rule)] = sarif_results(doc["uploads"][0]["copy"])
    assert (path, rule) == ("cline/lib/turns.py", "LF104")
    assert (workspace / path).read_text().splitlines()[line - 1] == '    models = read_state("models", {})'
    validate(pathlib.Path(doc["uploads"][0]["copy"]), tmp_path)


def test_github_format_annotates_and_uploads_nothing(runner, workspace, tmp_path):
    runner_dir, _, _ = runner
    doc = run_action(workspace, runner_dir, tmp_path / "r.json", format="github", paths="cline")
    assert outcomes(doc)["Upload the SARIF to code scanning"] == "skipped"
    assert doc["uploads"] == [] and doc["outputs"] == {"sarif-file": "", "exit-code": "1"}
    assert doc["conclusion"] == "failure"
    lines = step(doc, "lockfix scan")["stdout"].splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == ["::error", "::warning", "::warning", "::warning"], lines
    assert all("file=cline/lib/" in line for line in lines)


def test_config_paths_and_sarif_file_inputs(runner, workspace, tmp_path):
    runner_dir, _, _ = runner
    (workspace / "ci").mkdir()
    (workspace / "ci" / "lockfix.json").write_text('{"ignore": ["LF104", "LF201"]}\n')
    doc = run_action(workspace, runner_dir, tmp_path / "r.json", config="ci/lockfix.json",
                     paths="cline\n  omo/lib ", sarif_file="out/lockfix results.sarif", category="monorepo")
    [upload] = doc["uploads"]
    assert upload["sarif_file"] == "out/lockfix results.sarif" and upload["category"] == "monorepo"
    assert upload["resolved"] == str(workspace / "out" / "lockfix results.sarif")
    got = sarif_results(upload["copy"])
    assert got == expected(workspace, "--config", "ci/lockfix.json", "cline", "omo/lib")
    assert sorted({(p.split("/")[0], r) for p, _l, _c, r in got}) == [("cline", "LF401"), ("omo", "LF101"),
                                                                      ("omo", "LF401")]


@pytest.mark.parametrize("inputs, message", [
    ({"fail_on": "sometimes"}, "::error title=lockfix::fail-on must be error, warning, info or never, got 'sometimes'"),
    ({"format": "text"}, "::error title=lockfix::format must be sarif or github, got 'text'"),
    ({"paths": "no-such-dir"}, "::error title=lockfix::lockfix scan failed (exit 2)"),
    ({"baseline": "missing.json"}, "::error title=lockfix::lockfix scan failed (exit 2)"),
])
def test_bad_inputs_fail_the_scan_step_and_upload_nothing(runner, workspace, tmp_path, inputs, message):
    runner_dir, _, _ = runner
    doc = run_action(workspace, runner_dir, tmp_path / "r.json", **inputs)
    o = outcomes(doc)
    assert o["lockfix scan"] == "failure"
    assert o["Upload the SARIF to code scanning"] == "skipped"
    assert doc["conclusion"] == "failure"
    assert message in step(doc, "lockfix scan")["stdout"]
