"""Selection (--select/--ignore), .lockfix.json discovery and errors, --config,
--no-config, --rules DIR."""
import json
import shutil

from lfcli import SOURCE_DIR, STATE_PY, run, write


def rules_of(r):
    return [f["rule_id"] for f in json.loads(r.stdout)["findings"]]


def test_select_and_ignore(project):
    scan = lambda *a: run("scan", "--no-config", "--format", "json", *a, project)
    assert rules_of(scan()) == ["LF401", "LF201", "LF303"]
    assert rules_of(scan("--select", "LF401")) == ["LF401"]
    assert rules_of(scan("--select", "LF4,LF2")) == ["LF401", "LF201"]
    assert rules_of(scan("--select", "LF401", "--select", "liveness-misread")) == ["LF401", "LF303"]
    assert rules_of(scan("--ignore", "LF401")) == ["LF201", "LF303"]
    assert rules_of(scan("--select", "LF4,LF3", "--ignore", "LF303")) == ["LF401"]
    assert rules_of(scan("--select", "ALL", "--ignore", "shared-temp-name, LF2")) == ["LF303"]


def test_config_discovered_upward(project):
    write(project / ".lockfix.json", '{"ignore": ["LF201"], "severity": {"LF303": "error"}}')
    # Scanning a subdirectory (and a file in it) still finds the config above.
    for target in (project / "pkg", project / "pkg" / "state.py"):
        r = run("scan", "--format", "json", target)
        doc = json.loads(r.stdout)
        assert [(f["rule_id"], f["severity"]) for f in doc["findings"]] == [("LF401", "warning"), ("LF303", "error")]
    # The nearest config wins.
    write(project / "pkg" / ".lockfix.json", '{"select": ["LF201"]}')
    assert rules_of(run("scan", "--format", "json", project / "pkg")) == ["LF201"]


def test_cli_selection_replaces_config(project):
    write(project / ".lockfix.json", '{"select": ["LF401"], "ignore": ["LF303"]}')
    assert rules_of(run("scan", "--format", "json", project)) == ["LF401"]
    assert rules_of(run("scan", "--format", "json", "--select", "LF3", project)) == []
    assert rules_of(run("scan", "--format", "json", "--select", "LF3", "--ignore", "LF201", project)) == ["LF303"]


def test_severity_off_and_config_exclude(project):
    write(project / ".lockfix.json", '{"severity": {"LF401": "off"}, "exclude": ["pkg/clean.py"]}')
    r = run("scan", "--format", "json", project)
    doc = json.loads(r.stdout)
    assert [f["rule_id"] for f in doc["findings"]] == ["LF201", "LF303"]
    assert doc["summary"]["files_scanned"] == 1  # clean.py excluded


def test_explicit_config_and_no_config(project, tmp_path_factory):
    other = tmp_path_factory.mktemp("cfg") / "mine.json"
    other.write_text('{"select": ["LF303"]}')
    write(project / ".lockfix.json", '{"select": ["LF401"]}')
    assert rules_of(run("scan", "--format", "json", "--config", other, project)) == ["LF303"]
    assert rules_of(run("scan", "--format", "json", "--no-config", project)) == ["LF401", "LF201", "LF303"]


def test_malformed_configs_exit_2_naming_file_and_line(project):
    cases = [
        ('{\n  "select": ["LF1"],\n  "selct": []\n}\n',
         ':3: unknown key "selct" (expected one of: select, ignore, exclude, severity, fail_on)'),
        ('{\n  "select": ["LF1",]\n}\n', ":2: invalid JSON near ']'"),
        ('{\n  "fail_on": "never"\n}\n', ':2: "fail_on" must be "error", "warning" or "info"'),
        ('{\n  "select": [\n    "LF999"\n  ]\n}\n', ':3: "select": unknown rule selector "LF999" (see `lockfix rules`)'),
        ('{"severity": {\n "LF302": "fatal"}}', ':2: severity of "LF302" must be "error", "warning", "info" or "off", not "fatal"'),
    ]
    for text, problem in cases:
        write(project / ".lockfix.json", text)
        r = run("scan", ".", cwd=project)
        assert r.returncode == 2, text
        assert r.stderr == f"lockfix: .lockfix.json{problem}\n", text
        assert r.stdout == ""


def test_unreadable_config_exit_2(project):
    r = run("scan", "--config", project / "nope.json", project)
    assert r.returncode == 2
    assert r.stderr == f"lockfix: {project / 'nope.json'}: cannot read config: No such file or directory\n"


def test_extra_rules_dir(project, tmp_path_factory):
    extra = tmp_path_factory.mktemp("rules")
    src = next((SOURCE_DIR / "rules").glob("LF401-*.json"))
    doc = json.loads(src.read_text())
    doc["id"] = "LF901"
    doc["name"] = "shared-temp-name-copy"
    (extra / "LF901-shared-temp-name-copy.json").write_text(json.dumps(doc))
    r = run("rules", "--rules", extra)
    assert r.returncode == 0
    assert any(l.startswith("LF901 ") for l in r.stdout.splitlines())
    r = run("scan", "--no-config", "--rules", extra, "--select", "LF901,LF401", "--format", "json", project)
    assert rules_of(r) == ["LF401", "LF901"]


def test_malformed_rule_file_exit_2(project, tmp_path_factory):
    extra = tmp_path_factory.mktemp("badrules")
    (extra / "LF999-broken.json").write_text('{"id": "LF999",\n "name": ')
    for argv in (["scan", "--no-config", "--rules", extra, project], ["rules", "--rules", extra]):
        r = run(*argv)
        assert r.returncode == 2
        assert r.stderr.startswith("lockfix: ") and "LF999-broken.json" in r.stderr, r.stderr
        assert r.stdout == ""
    r = run("scan", "--no-config", "--rules", extra / "missing", project)
    assert r.returncode == 2
    assert "missing" in r.stderr
