"""Golden test: `lockfix scan fixtures/` reports exactly fixtures/expected/findings.txt,
in the same order, in every output format."""
import json

import pytest

from lfcli import PARSERS, SOURCE_DIR, run

EXPECTED = SOURCE_DIR / "fixtures" / "expected" / "findings.txt"


def expected_findings():
    out = []
    for line in EXPECTED.read_text().splitlines():
        if not line.strip():
            continue
        loc, rule = line.rsplit(": ", 1)
        path, ln, col = loc.rsplit(":", 2)
        out.append((path, int(ln), int(col), rule.strip()))
    return out


@pytest.mark.parametrize("fmt", sorted(PARSERS))
def test_fixture_findings_in_every_format(fmt):
    r = run("scan", "--no-config", "--format", fmt, "fixtures", cwd=SOURCE_DIR)
    assert r.returncode == 1, r.stderr
    assert r.stderr == ""
    assert PARSERS[fmt](r.stdout) == expected_findings()


def test_expected_counts_match_the_brief():
    rules = [f[3] for f in expected_findings() if f[0].startswith("fixtures/integrations/")]
    assert rules.count("LF101") == 9
    assert rules.count("LF201") == 8
    assert rules.count("LF401") == 8
    lf101_integrations = {f[0].split("/")[2] for f in expected_findings() if f[3] == "LF101"}
    assert len(lf101_integrations) == 7
    assert not any(f[0].startswith("fixtures/negative/") for f in expected_findings())


def test_every_format_covers_ts_and_js():
    """The TS/JS fixtures (fixtures/node) reach every format: each TS/JS rule in
    each of .ts .mts .cts .js .mjs .cjs .tsx (the golden comparison above then
    checks their exact positions in every format)."""
    seen = {(f[3], f[0].rsplit(".", 1)[1]) for f in expected_findings() if f[0].startswith("fixtures/node/")}
    for rule in ("LF103", "LF104", "LF201", "LF301", "LF302", "LF303", "LF401"):
        for ext in ("ts", "mts", "cts", "js", "mjs", "cjs", "tsx"):
            assert (rule, ext) in seen, (rule, ext)


def test_negative_fixtures_are_clean():
    r = run("scan", "--no-config", "--format", "json", "fixtures/negative", cwd=SOURCE_DIR)
    assert r.returncode == 0, r.stdout
    doc = json.loads(r.stdout)
    assert doc["findings"] == []
    assert doc["summary"]["files_scanned"] >= 10


def test_text_summary_counts():
    r = run("scan", "--no-config", "fixtures", cwd=SOURCE_DIR)
    want = expected_findings()
    files = len({f[0] for f in want})
    summary = r.stdout.splitlines()[-1]
    assert summary.startswith(f"Found {len(want)} findings (")
    assert f") in {files} files" in summary
