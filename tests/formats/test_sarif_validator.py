"""Microsoft's SARIF validator (npm @microsoft/sarif-multitool-linux, pinned in
deps/tools, installed into the build tree by the formats.tools_setup fixture)
accepts lockfix's SARIF with no error and no warning, checked against the
schema the package ships (sarif-2.1.0.json) as well as its rules."""
import json
import os

from lfcli import SOURCE_DIR, STATE_PY, run, write
from sarif_multitool import problems, validate


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
