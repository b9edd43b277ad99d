"""Every output format on the same synthetic tree: same findings, documented
shapes, --output."""
import json
import os
import re
import stat

from lfcli import PARSERS, STATE_FINDINGS, STATE_PY, parse_github_full, run, write


def test_every_format_reports_the_same_findings(project):
    # Awkward names: spaces, ',', ':', '%' and non-ASCII must survive every format.
    write(project / "odd dir" / "a,b:c%é.py", STATE_PY)
    want = [(p, l, c, r) for p in ("odd dir/a,b:c%é.py", "pkg/state.py") for (l, c, r) in STATE_FINDINGS]
    for fmt, parse in PARSERS.items():
        r = run("scan", "--no-config", "--format", fmt, ".", cwd=project)
        assert r.returncode == 1, (fmt, r.stderr)
        assert parse(r.stdout) == want, fmt


def test_text_format(project):
    r = run("scan", "--no-config", "--select", "LF401", "pkg", cwd=project)
    lines = r.stdout.splitlines()
    assert lines[0].startswith("pkg/state.py:6:11: LF401 ")
    assert lines[1] == '  6 |     tmp = path + ".tmp"'
    assert lines[2] == "    |           ^~~~~~~~~~~~~"
    assert lines[3].startswith("    = fix: ")
    # the witness: the shared temp name written by A and B, then both renames
    assert lines[4:10] == [
        "    = witness (any platform):",
        '      1. A  L6:11  opens the temp name and writes its data: path + ".tmp"',
        '      2. B  L6:11  opens the same temp name, truncating A\'s data, and starts writing: path + ".tmp"',
        "      3. A  L9:5   renames the temp over the target while B is still writing it: os.replace(tmp, path)",
        "      4. B  L9:5   renames a temp that is gone: the rename fails: os.replace(tmp, path)",
        "      => the target holds B's half-written data under A's name, and B's write fails",
    ]
    assert lines[-1] == "Found 1 finding (1 warning) in 1 file; 1 fixable with `lockfix fix`"


def test_json_schema(project):
    r = run("scan", "--no-config", "--format", "json", "pkg", cwd=project)
    doc = json.loads(r.stdout)
    assert set(doc) == {"schema_version", "tool", "findings", "summary", "skipped", "partial"}
    assert doc["schema_version"] == 1
    assert doc["tool"]["name"] == "lockfix"
    f = doc["findings"][0]
    assert set(f) == {"path", "line", "column", "end_line", "end_column", "rule_id", "rule_name", "severity",
                      "message", "fingerprint", "fix", "witness"}
    assert re.fullmatch(r"[0-9a-f]{16}:1", f["fingerprint"]), f["fingerprint"]
    assert (f["path"], f["line"], f["column"], f["end_line"], f["end_column"]) == ("pkg/state.py", 6, 11, 6, 24)
    assert (f["rule_id"], f["rule_name"], f["severity"]) == ("LF401", "shared-temp-name", "warning")
    assert f["fix"]["safety"] == "safe"
    assert f["fix"]["available"] is True
    assert f["fix"]["title"]
    edit = f["fix"]["edits"][0]
    assert set(edit) == {"start_line", "start_column", "end_line", "end_column", "start_byte", "end_byte", "content"}
    w = f["witness"]
    assert (w["platform"], w["outcome"]) == (
        "any platform", "the target holds B's half-written data under A's name, and B's write fails")
    assert [(s["process"], s["event"], s["path"], s["line"], s["column"], s["end_line"], s["end_column"])
            for s in w["steps"]] == [("A", "open-temp", "pkg/state.py", 6, 11, 6, 24),
                                     ("B", "open-temp", "pkg/state.py", 6, 11, 6, 24),
                                     ("A", "rename", "pkg/state.py", 9, 5, 9, 26),
                                     ("B", "rename", "pkg/state.py", 9, 5, 9, 26)]
    assert w["steps"][2]["message"] == "renames the temp over the target while B is still writing it: os.replace(tmp, path)"
    assert doc["findings"][2]["rule_id"] == "LF303"
    lf303 = doc["findings"][2]["fix"]  # EPERM read as alive: a clause before the handler
    assert (lf303["available"], lf303["safety"]) == (True, "safe")
    assert [e["content"] for e in lf303["edits"]] == ["    except PermissionError:\n        pass\n"]
    assert doc["summary"] == {
        "files_scanned": 2, "files_with_findings": 1, "files_skipped": 0, "files_partial": 0, "findings": 3, "errors": 1,
        "warnings": 2, "info": 0, "fixable": 3, "unsafe_fixable": 0, "fail_on": "warning", "failing": 3}
    assert doc["skipped"] == []
    assert doc["partial"] == []


def test_sarif_structure(project):
    r = run("scan", "--no-config", "--format", "sarif", "pkg", cwd=project)
    doc = json.loads(r.stdout)
    assert doc["version"] == "2.1.0"
    run_ = doc["runs"][0]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "lockfix" and driver["version"] and driver["informationUri"]
    ids = [rule["id"] for rule in driver["rules"]]
    assert ids == [l.split()[0] for l in run("rules").stdout.splitlines()[1:]]
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert "Why is this bad?" in rule["help"]["text"]
        assert "## Why is this bad?" in rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    for res in run_["results"]:
        assert driver["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"] == {"uri": "pkg/state.py", "uriBaseId": "%SRCROOT%"}
        assert set(loc["region"]) >= {"startLine", "startColumn", "endLine", "endColumn"}
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://" + str(project) + "/"
    assert run_["columnKind"] == "unicodeCodePoints"
    fps = [res["partialFingerprints"]["lockfixLineHash/v1"] for res in run_["results"]]
    assert len(set(fps)) == len(fps)


def test_github_format(project):
    r = run("scan", "--no-config", "--format", "github", "pkg", cwd=project)
    items = parse_github_full(r.stdout)
    assert [(level, p["title"]) for level, p, _ in items] == [
        ("warning", "LF401 shared-temp-name"), ("error", "LF201 realpath-missing-target"),
        ("warning", "LF303 liveness-misread")]
    level, props, msg = items[0]
    assert props == {"file": "pkg/state.py", "line": "6", "col": "11", "endLine": "6", "endColumn": "24",
                     "title": "LF401 shared-temp-name"}
    assert msg
    assert not r.stdout.startswith("Found")


def test_output_file_atomic(project):
    out = project / "report.sarif"
    out.write_text("old")
    os.chmod(out, 0o640)
    r = run("scan", "--no-config", "--format", "sarif", "--output", out, "pkg", cwd=project)
    assert r.returncode == 1
    assert r.stdout == ""
    same = run("scan", "--no-config", "--format", "sarif", "pkg", cwd=project).stdout
    assert out.read_text() == same
    assert stat.S_IMODE(out.stat().st_mode) == 0o640  # an existing report keeps its mode
    # no temp file left behind (beside the result cache the scans keep in the current directory)
    assert sorted(p.name for p in project.iterdir()) == [".lockfix_cache", "pkg", "report.sarif"]
    fresh = project / "fresh.txt"
    r = run("scan", "--no-config", "-o", fresh, "pkg", cwd=project)
    assert fresh.read_text().endswith("Found 3 findings (1 error, 2 warnings) in 1 file; 3 fixable with `lockfix fix`\n")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~current_umask()


def test_output_into_a_fifo_keeps_the_fifo(project):
    """--output naming something that is not a regular file (a FIFO here;
    /dev/null alike) is written into, never replaced by a renamed temp: as
    root, the atomic rename would turn /dev/null into a plain file."""
    import threading
    fifo = project / "report.pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    r = run("scan", "--no-config", "--format", "json", "--no-witness", "-o", fifo, "pkg", cwd=project)
    reader.join(timeout=60)
    assert r.returncode == 1, r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    doc = json.loads(got[0])
    assert [f["rule_id"] for f in doc["findings"]] == ["LF401", "LF201", "LF303"]
    assert sorted(p.name for p in project.iterdir()) == [".lockfix_cache", "pkg", "report.pipe"]


def current_umask():
    m = os.umask(0)
    os.umask(m)
    return m


STORE_TS = '''\
import * as fs from "node:fs";

export function save(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function takeOver(lock: string): void {
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
    return;
  } catch {
    if (alive(Number(fs.readFileSync(lock, "utf8")))) throw new Error("held");
  }
  fs.writeFileSync(lock, String(process.pid));
}
'''
# A rename with a callback: the LF401 fix declines it.
LEGACY_CJS = '''\
const fs = require("fs");

function save(file, text, done) {
  const tmp = file + ".tmp";
  fs.writeFileSync(tmp, text);
  fs.rename(tmp, file, done);
}

module.exports = { save };
'''


def test_ts_fixable_counts_in_every_format(tmp_path):
    """TS/JS findings count as fixable where their fix applies, in every format
    and in `fix --apply`'s summary; a declined one carries its reason."""
    write(tmp_path / "pkg" / "store.ts", STORE_TS)
    write(tmp_path / "pkg" / "legacy.cjs", LEGACY_CJS)
    r = run("scan", "--no-config", "pkg", cwd=tmp_path)
    assert r.stdout.splitlines()[-1] == "Found 3 findings (3 warnings) in 2 files; 2 fixable with `lockfix fix`"
    doc = json.loads(run("scan", "--no-config", "--format", "json", "pkg", cwd=tmp_path).stdout)
    assert doc["summary"]["fixable"] == 2 and doc["summary"]["findings"] == 3
    got = [(f["path"], f["line"], f["rule_id"], f["fix"]["available"], f["fix"]["safety"]) for f in doc["findings"]]
    assert got == [("pkg/legacy.cjs", 4, "LF401", False, "safe"), ("pkg/store.ts", 4, "LF401", True, "safe"),
                   ("pkg/store.ts", 11, "LF303", True, "safe")]
    assert doc["findings"][0]["fix"]["reason"].startswith("the rename is neither renameSync nor an awaited promise")
    sarif = json.loads(run("scan", "--no-config", "--format", "sarif", "pkg", cwd=tmp_path).stdout)
    results = sarif["runs"][0]["results"]
    assert [(res["ruleId"], len(res.get("fixes", []))) for res in results] == [("LF401", 0), ("LF401", 1), ("LF303", 1)]
    gh = parse_github_full(run("scan", "--no-config", "--format", "github", "pkg", cwd=tmp_path).stdout)
    assert [(p["file"], p["line"], p["title"]) for _, p, _ in gh] == [
        ("pkg/legacy.cjs", "4", "LF401 shared-temp-name"), ("pkg/store.ts", "4", "LF401 shared-temp-name"),
        ("pkg/store.ts", "11", "LF303 liveness-misread")]
    r = run("fix", "--no-config", "--apply", "pkg", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == "lockfix: applied 2 fixes in 1 file; 1 finding left without a safe fix"
    after = json.loads(run("scan", "--no-config", "--format", "json", "pkg", cwd=tmp_path).stdout)
    assert after["summary"]["fixable"] == 0
    assert [(f["path"], f["rule_id"]) for f in after["findings"]] == [("pkg/legacy.cjs", "LF401")]
