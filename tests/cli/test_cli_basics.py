"""Top-level CLI: help, version, dispatch, usage errors (exit 2)."""
import re

from lfcli import SOURCE_DIR, run


def project_version():
    text = (SOURCE_DIR / "CMakeLists.txt").read_text()
    return re.search(r"project\(lockfix VERSION (\S+)", text).group(1)


def test_version():
    for flag in ("--version", "-V"):
        r = run(flag)
        assert r.returncode == 0
        assert r.stdout == f"lockfix {project_version()}\n"


def test_help_lists_commands():
    r = run("--help")
    assert r.returncode == 0
    for cmd in ("scan", "fix", "rules", "explain"):
        assert re.search(rf"^  {cmd}\b", r.stdout, re.M), cmd
    assert "Exit status: 0" in r.stdout


def test_no_arguments_is_a_usage_error():
    r = run()
    assert r.returncode == 2
    assert r.stderr.startswith("usage: lockfix")
    assert r.stdout == ""


def test_unknown_command():
    r = run("scna")
    assert r.returncode == 2
    assert r.stderr == "lockfix: unknown command 'scna' (see `lockfix --help`)\n"


def test_per_command_help():
    for cmd in ("scan", "rules", "explain"):
        r = run(cmd, "--help")
        assert r.returncode == 0, cmd
        assert r.stdout.startswith(f"usage: lockfix {cmd}"), cmd
        assert run("help", cmd).stdout == r.stdout
        assert run(cmd, "-h").stdout == r.stdout
    scan_help = run("scan", "--help").stdout
    for opt in ("--format", "--output", "--select", "--ignore", "--exclude", "--config", "--no-config",
                "--rules", "--fail-on", "--jobs"):
        assert opt in scan_help, opt


def test_scan_usage_errors(tmp_path):
    cases = [
        (["--bogus"], "lockfix scan: unknown option '--bogus' (see `lockfix scan --help`)\n"),
        (["--format", "xml"], "lockfix scan: --format: expected text, json, sarif or github, got \"xml\"\n"),
        (["--format"], "lockfix scan: option --format needs a value\n"),
        (["--jobs", "many"], "lockfix scan: --jobs: expected a number from 0 to 1024, got \"many\"\n"),
        (["-j"], "lockfix scan: option -j needs a value\n"),
        (["--fail-on", "off"], "lockfix scan: --fail-on: expected error, warning or info, got \"off\"\n"),
        (["--output"], "lockfix scan: option --output needs a value\n"),
        (["--select"], "lockfix scan: option --select needs a value\n"),
        (["--select", "LF999"], "lockfix: --select: unknown rule selector \"LF999\" (see `lockfix rules`)\n"),
        (["--ignore=nope"], "lockfix: --ignore: unknown rule selector \"nope\" (see `lockfix rules`)\n"),
    ]
    for args, err in cases:
        r = run("scan", "--no-config", str(tmp_path), *args)
        assert r.returncode == 2, args
        assert r.stderr == err, args
        assert r.stdout == "", args


def test_missing_path_is_exit_2(tmp_path):
    r = run("scan", "--no-config", str(tmp_path), "no/such/dir")
    assert r.returncode == 2
    assert r.stderr == "lockfix: no/such/dir: No such file or directory\n"
    assert r.stdout == ""


def test_double_dash_ends_options(tmp_path):
    (tmp_path / "--weird.py").write_text("x = 1\n")
    r = run("scan", "--no-config", "--", "--weird.py", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "No findings in 1 file.\n"


def test_rules_text_table():
    r = run("rules")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["ID", "NAME", "SEVERITY", "LANGUAGES", "FIX"]
    ids = [l.split()[0] for l in lines[1:]]
    assert ids == sorted(ids)
    for rid in ("LF101", "LF104", "LF201", "LF301", "LF302", "LF303", "LF401"):
        assert rid in ids
    row = next(l for l in lines if l.startswith("LF401"))
    assert row.split()[1:3] == ["shared-temp-name", "warning"]
    assert "python" in row and row.split()[-1] == "safe"


def test_rules_json_matches_text():
    import json
    r = run("rules", "--format", "json")
    assert r.returncode == 0
    doc = json.loads(r.stdout)
    assert doc["schema_version"] == 1
    text_ids = [l.split()[0] for l in run("rules").stdout.splitlines()[1:]]
    assert [x["id"] for x in doc["rules"]] == text_ids
    for rule in doc["rules"]:
        assert set(rule) >= {"id", "name", "summary", "severity", "languages", "fix_safety", "docs"}
        assert rule["severity"] in ("error", "warning", "info")
        assert rule["fix_safety"] in ("safe", "unsafe", "suggestion", "none")
        assert {"what", "why", "example", "use_instead", "fix_safety"} <= set(rule["docs"]) <= {
                "what", "why", "example", "use_instead", "fix_safety", "known_problems"}
    assert run("rules", "--format", "yaml").returncode == 2


def test_explain_prints_every_section():
    r = run("explain", "LF101")
    assert r.returncode == 0
    out = r.stdout
    assert out.startswith("LF101 unlocked-fallback\n")
    positions = [out.index(f"\n{h}\n") for h in
                 ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety")]
    assert positions == sorted(positions)
    # By name and case-insensitive id too.
    assert run("explain", "unlocked-fallback").stdout == out
    assert run("explain", "lf101").stdout == out


def test_explain_unknown_rule():
    r = run("explain", "LF999")
    assert r.returncode == 2
    assert r.stderr == "lockfix explain: unknown rule \"LF999\" (`lockfix rules` lists them)\n"
    r = run("explain")
    assert r.returncode == 2
    assert "which rule?" in r.stderr
    assert run("explain", "LF101", "LF201").returncode == 2
