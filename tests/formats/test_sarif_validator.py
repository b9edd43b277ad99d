"""Microsoft's SARIF validator (npm @microsoft/sarif-multitool-linux, pinned in
deps/tools, installed into the build tree by the formats.tools_setup fixture)
accepts lockfix's SARIF with no error and no warning, checked against the
schema the package ships (sarif-2.1.0.json) as well as its rules."""
import json
import os
import pathlib
import stat
import subprocess

import pytest

from lfcli import SOURCE_DIR, STATE_PY, run, write

TOOLS = pathlib.Path(os.environ.get("LOCKFIX_TOOLS_DIR", SOURCE_DIR / "build" / "tools"))
PKG = TOOLS / "node_modules" / "@microsoft" / "sarif-multitool-linux"


def multitool():
    exe = PKG / "Sarif.Multitool"
    if not exe.exists():
        pytest.fail(f"{exe} is missing: run `ctest -R formats.tools_setup` (npm ci of deps/tools)")
    # npm ci --ignore-scripts does not mark the single-file .NET app executable.
    if not os.access(exe, os.X_OK):
        exe.chmod(exe.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return exe


def problems(sarif_path, tmp_path):
    """Errors and warnings the validator reports (its exit status is 0 either way)."""
    schema = PKG / "sarif-2.1.0.json"
    assert schema.exists()
    log = tmp_path / (pathlib.Path(sarif_path).stem + ".validation.sarif")
    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1")
    p = subprocess.run([str(multitool()), "validate", str(sarif_path), "--json-schema", str(schema),
                        "--level", "Error;Warning;Note", "--output", str(log)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    results = json.loads(log.read_text())["runs"][0].get("results", [])
    return [(r.get("level", "warning"), r["ruleId"]) for r in results if r.get("level", "warning") in ("error", "warning")]


def validate(sarif_path, tmp_path):
    assert problems(sarif_path, tmp_path) == []


def test_validator_rejects_a_broken_log(tmp_path):
    """The harness has teeth: the same log with a required property removed and
    a wrong type fails validation."""
    out = tmp_path / "good.sarif"
    run("scan", "--no-config", "--format", "sarif", "--output", out, "fixtures", cwd=SOURCE_DIR)
    doc = json.loads(out.read_text())
    del doc["runs"][0]["tool"]["driver"]["name"]
    doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = "1"
    bad = tmp_path / "bad.sarif"
    bad.write_text(json.dumps(doc))
    assert sorted(problems(bad, tmp_path)) == [("error", "JSON1001"), ("error", "JSON1002")]


def test_fixtures_sarif_is_valid(tmp_path):
    out = tmp_path / "fixtures.sarif"
    r = run("scan", "--no-config", "--format", "sarif", "--output", out, "fixtures", cwd=SOURCE_DIR)
    assert r.returncode == 1
    assert json.loads(out.read_text())["runs"][0]["results"]
    validate(out, tmp_path)


def test_sarif_with_skips_odd_names_and_fixes_is_valid(tmp_path):
    tree = tmp_path / "tree"
    write(tree / "odd dir" / "a,b:c%é.py", STATE_PY)
    write(tree / "blob.py", "x\0y")
    os.mkfifo(tree / "pipe.py")
    out = tmp_path / "odd.sarif"
    r = run("scan", "--no-config", "--format", "sarif", "--output", out, ".", cwd=tree)
    assert r.returncode == 1
    doc = json.loads(out.read_text())
    assert len(doc["runs"][0]["invocations"][0]["toolExecutionNotifications"]) == 2
    validate(out, tmp_path)
    # And an empty run (no results) is valid too.
    clean = tmp_path / "clean"
    write(clean / "ok.py", "x = 1\n")
    r = run("scan", "--no-config", "--format", "sarif", "--output", tmp_path / "clean.sarif", clean)
    assert r.returncode == 0
    validate(tmp_path / "clean.sarif", tmp_path)
