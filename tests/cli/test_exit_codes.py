"""Exit status: 0 nothing at or above --fail-on, 1 findings, 2 errors."""
import json

from lfcli import CLEAN_PY, run, write


def test_clean_tree_exits_0(tmp_path):
    write(tmp_path / "a.py", CLEAN_PY)
    r = run("scan", "--no-config", tmp_path)
    assert r.returncode == 0
    assert r.stdout == "No findings in 1 file.\n"
    assert r.stderr == ""


def test_findings_exit_1(project):
    r = run("scan", "--no-config", project)
    assert r.returncode == 1
    assert r.stdout.endswith("Found 3 findings (1 error, 2 warnings) in 1 file; 3 fixable with `lockfix fix`\n")


def test_fail_on(project):
    # LF401 and LF303 are warnings, LF201 an error.
    assert run("scan", "--no-config", "--select", "LF401,LF303", "--fail-on", "error", project).returncode == 0
    assert run("scan", "--no-config", "--select", "LF401", "--fail-on", "warning", project).returncode == 1
    assert run("scan", "--no-config", "--select", "LF201", "--fail-on", "error", project).returncode == 1
    assert run("scan", "--no-config", "--select", "LF401", "--fail-on=info", project).returncode == 1


def test_info_findings_do_not_fail_by_default(project):
    write(project / ".lockfix.json", '{"severity": {"LF401": "info"}, "select": ["LF401"]}')
    r = run("scan", "--format", "json", project)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [(f["rule_id"], f["severity"]) for f in doc["findings"]] == [("LF401", "info")]
    assert doc["summary"]["failing"] == 0
    assert run("scan", "--fail-on", "info", project).returncode == 1


def test_config_fail_on_and_cli_override(project):
    write(project / ".lockfix.json", '{"fail_on": "error", "select": ["LF401"]}')
    assert run("scan", project).returncode == 0
    assert run("scan", "--fail-on", "warning", project).returncode == 1


def test_output_error_is_exit_2(project):
    r = run("scan", "--no-config", "--output", project / "missing-dir" / "out.json", project)
    assert r.returncode == 2
    assert "cannot create output file" in r.stderr
