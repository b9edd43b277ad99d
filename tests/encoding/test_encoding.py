"""Issue 21, item 4: every valid source file is read. Python files in their
PEP 263 encoding (latin-1, cp1252), UTF-8 behind a byte-order mark, TS in
UTF-16 LE behind its BOM: findings at the file's own lines and columns in
every format, fixes written back in the file's encoding with every byte
outside the edits kept, diffs that apply to the file's bytes. What cannot be
read is skipped with its reason.

cases/<name>.in are the inputs (bytes as on disk; .gitattributes keeps git
from touching them), expected/<name>.fixed what `fix --apply` must write."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

BIN = os.environ.get("LOCKFIX_BIN", "")
HERE = pathlib.Path(__file__).resolve().parent
CASES = HERE / "cases"
EXPECTED = HERE / "expected"
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

# name -> (Python codec of the bytes after any BOM, BOM, findings as (rule, line, column, marker)):
# the marker is the text the finding starts at, so its column is also computed
# below from the decoded line, in code points.
FILES = {
    "latin1_lf401.py": ("latin-1", b"", [("LF401", 10, 34, 'chemin + ".tmp"')]),
    "cp1252_lf201_lf401.py": ("cp1252", b"", [("LF201", 11, 12, "os.path.realpath(chemin)"),
                                              ("LF401", 18, 11, 'f"{chemin}.tmp"')]),
    "bom_lf401.py": ("utf-8", b"\xef\xbb\xbf", [("LF401", 7, 25, 'path + ".tmp"')]),
    "bom_lf401.ts": ("utf-8", b"\xef\xbb\xbf", [("LF401", 5, 35, "`${path}.tmp`")]),
    "utf16le_lf401.ts": ("utf-16-le", b"\xff\xfe", [("LF401", 5, 35, "`${path}.tmp`")]),
}
FIXED = [n for n in FILES if (EXPECTED / (n + ".fixed")).exists()]
UTF16_DECLINE = ("the file is UTF-16LE, and fixes are written only to files in UTF-8 or an ASCII-compatible "
                 "encoding (a diff of UTF-16 is not text)")


def run(args, cwd, **kw):
    if not BIN:
        raise RuntimeError("LOCKFIX_BIN is not set (run through ctest)")
    return subprocess.run([BIN, *map(str, args)], cwd=cwd, capture_output=True, timeout=120, **kw)


def stage(tmp_path, *names):
    for n in names:
        shutil.copyfile(CASES / (n + ".in"), tmp_path / n)
    return tmp_path


def decoded(name):
    codec, bom, _ = FILES[name]
    data = (CASES / (name + ".in")).read_bytes()
    assert data.startswith(bom)
    return data[len(bom):].decode(codec)


def test_the_cases_are_what_they_claim():
    """The inputs really are in their encodings, with non-ASCII before each finding."""
    for name, (codec, bom, found) in FILES.items():
        text = decoded(name)
        lines = text.split("\n")
        for _, line, col, marker in found:
            before = "\n".join(lines[:line - 1]) + lines[line - 1][:col - 1]
            assert any(ord(c) > 127 for c in before), name
        if codec in ("latin-1", "cp1252"):
            assert (CASES / (name + ".in")).read_bytes() != text.encode("utf-8")


@pytest.mark.parametrize("name", FILES)
def test_findings_at_the_files_lines_and_columns_in_every_format(tmp_path, name):
    stage(tmp_path, name)
    lines = decoded(name).split("\n")
    want = []
    for rule, line, col, marker in FILES[name][2]:
        # Independently of lockfix: the marker's column in code points.
        assert lines[line - 1].index(marker) + 1 == col
        want.append((rule, line, col))
    js = json.loads(run(["scan", "--no-config", "--format", "json", name], tmp_path).stdout)
    assert [(f["rule_id"], f["line"], f["column"]) for f in js["findings"]] == want
    sarif = json.loads(run(["scan", "--no-config", "--format", "sarif", name], tmp_path).stdout)
    got = []
    for r in sarif["runs"][0]["results"]:
        reg = r["locations"][0]["physicalLocation"]["region"]
        got.append((r["ruleId"], reg["startLine"], reg["startColumn"]))
        # The snippet is the flagged text itself, read through the encoding.
        assert reg["snippet"]["text"].startswith(
            [m for (ru, li, co, m) in FILES[name][2] if (ru, li, co) == got[-1]][0])
    assert got == want
    gh = run(["scan", "--no-config", "--format", "github", name], tmp_path).stdout.decode()
    assert [(l.split("title=")[1].split()[0], int(l.split(",line=")[1].split(",")[0]),
             int(l.split(",col=")[1].split(",")[0])) for l in gh.splitlines()] == want
    text = run(["scan", "--no-config", name], tmp_path)
    assert text.returncode == 1 and text.stderr == b""
    heads = [l for l in text.stdout.decode().splitlines() if l.startswith(name + ":")]
    assert heads == ["%s:%d:%d: %s %s" % (name, line, col, rule, h.split(" ", 2)[2])
                     for (rule, line, col), h in zip(want, heads)]
    # The caret line shows the source line as UTF-8 text.
    assert "%d | %s" % (want[0][1], lines[want[0][1] - 1]) in text.stdout.decode()


@pytest.mark.parametrize("name", FIXED)
def test_fix_apply_writes_the_expected_bytes_in_the_files_encoding(tmp_path, name):
    stage(tmp_path, name)
    original = (tmp_path / name).read_bytes()
    js = json.loads(run(["scan", "--no-config", "--format", "json", name], tmp_path).stdout)
    r = run(["fix", "--no-config", name, "--apply"], tmp_path)
    assert r.returncode == 0, r.stderr
    fixed = (tmp_path / name).read_bytes()
    assert fixed == (EXPECTED / (name + ".fixed")).read_bytes()
    # Every byte outside the edits is the file's own: the edits' byte offsets
    # (JSON, in the file's bytes) bound the only region that changed.
    edits = [e for f in js["findings"] for e in f["fix"]["edits"]]
    first = min(e["start_byte"] for e in edits)
    last = max(e["end_byte"] for e in edits)
    assert fixed[:first] == original[:first]
    assert fixed[len(fixed) - (len(original) - last):] == original[last:]
    codec, bom, _ = FILES[name]
    assert fixed.startswith(bom)
    fixed[len(bom):].decode(codec)  # still decodes in its own encoding
    if name.endswith(".py"):
        subprocess.run([PYTHON, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], doraise=True)",
                        str(tmp_path / name)], check=True, capture_output=True)
    # A second run has nothing to do.
    again = run(["fix", "--no-config", name, "--diff"], tmp_path)
    assert again.returncode == 0 and again.stdout == b""


@pytest.mark.parametrize("name", FIXED)
def test_json_edit_offsets_are_byte_offsets_of_the_file(tmp_path, name):
    """start_byte/end_byte point into the file's bytes at the line and column
    the edit reports (decoded independently here)."""
    stage(tmp_path, name)
    data = (tmp_path / name).read_bytes()
    codec, bom, _ = FILES[name]
    js = json.loads(run(["scan", "--no-config", "--format", "json", name], tmp_path).stdout)
    for f in js["findings"]:
        for e in f["fix"]["edits"]:
            for side in ("start", "end"):
                before = data[len(bom):e[side + "_byte"]].decode(codec)
                assert before.count("\n") + 1 == e[side + "_line"]
                assert len(before) - (before.rfind("\n") + 1) + 1 == e[side + "_column"]


@pytest.mark.parametrize("name", FIXED)
def test_diff_is_in_the_files_encoding_and_applies_to_its_bytes(tmp_path, name):
    for tool in ("git", "patch"):
        if not shutil.which(tool):
            pytest.skip(tool + " is not installed")
    stage(tmp_path, name)
    r = run(["fix", "--no-config", name, "--diff"], tmp_path)
    assert r.returncode == 0, r.stderr
    patch = r.stdout
    assert patch.startswith(b"--- a/%s\n+++ b/%s\n" % (name.encode(), name.encode()))
    codec, _, _ = FILES[name]
    patch.decode(codec)  # the hunks are the file's bytes
    expected = (EXPECTED / (name + ".fixed")).read_bytes()
    for how, cmd in (("git", ["git", "apply", "-"]), ("patch", ["patch", "-p1", "-s"])):
        d = tmp_path / how
        d.mkdir()
        shutil.copyfile(CASES / (name + ".in"), d / name)
        if how == "git":
            subprocess.run(["git", "init", "-q"], cwd=d, check=True)
        subprocess.run(cmd, cwd=d, input=patch, check=True, capture_output=True)
        assert (d / name).read_bytes() == expected


@pytest.mark.parametrize("name", ["latin1_lf401.py", "cp1252_lf201_lf401.py", "bom_lf401.py", "bom_lf401.ts"])
def test_same_as_fixing_the_utf8_twin(tmp_path, name):
    """The file in its encoding and its UTF-8 twin (declaration renamed to
    utf-8, no BOM) give the same findings, fingerprints included, and the same
    fix once re-encoded: decoding, fixing and splicing change nothing else."""
    codec, bom, _ = FILES[name]
    text = decoded(name)
    twin = text.replace("coding: " + codec, "coding: utf-8").replace("fileencoding=" + codec, "fileencoding=utf-8")
    (tmp_path / "enc").mkdir()
    (tmp_path / "twin").mkdir()
    stage(tmp_path / "enc", name)
    (tmp_path / "twin" / name).write_bytes(twin.encode("utf-8"))

    def findings(d):
        js = json.loads(run(["scan", "--no-config", "--format", "json", name], d).stdout)
        return [(f["rule_id"], f["line"], f["column"], f["end_line"], f["end_column"], f["fingerprint"])
                for f in js["findings"]]

    assert findings(tmp_path / "enc") == findings(tmp_path / "twin")
    assert findings(tmp_path / "twin")
    for d in ("enc", "twin"):
        assert run(["fix", "--no-config", name, "--apply"], tmp_path / d).returncode == 0
    fixed_twin = (tmp_path / "twin" / name).read_text(encoding="utf-8")
    back = fixed_twin.replace("coding: utf-8", "coding: " + codec).replace("fileencoding=utf-8",
                                                                           "fileencoding=" + codec)
    assert (tmp_path / "enc" / name).read_bytes() == bom + back.encode(codec)


def test_utf16_file_is_analysed_and_its_fix_declined(tmp_path):
    name = "utf16le_lf401.ts"
    stage(tmp_path, name)
    original = (tmp_path / name).read_bytes()
    js = json.loads(run(["scan", "--no-config", "--format", "json", name], tmp_path).stdout)
    assert [(f["fix"]["reason"]) for f in js["findings"]] == [UTF16_DECLINE]
    r = run(["fix", "--no-config", name, "--apply"], tmp_path)
    assert r.returncode == 1
    assert ("%s:5:35: LF401 not fixed: %s\n" % (name, UTF16_DECLINE)).encode() in r.stderr
    assert (tmp_path / name).read_bytes() == original


LF401_PY = b'import os\n\n\ndef save(path, data):\n    tmp = path + ".tmp"\n    with open(tmp, "w") as f:\n' \
           b'        f.write(data)\n    os.replace(tmp, path)\n'

SKIPPED = [
    ("unknown-codec", "f.py", b"# -*- coding: no-such-codec -*-\n" + LF401_PY, "bad-encoding",
     "line 1 declares encoding 'no-such-codec', which lockfix does not know"),
    ("ascii-declared", "f.py", b"#!/usr/bin/python3\n# coding: ascii\n# caf\xe9\n" + LF401_PY, "bad-encoding",
     "line 3: byte 0xE9 (byte offset 40) is not valid ascii, the encoding line 2 declares"),
    ("cp1252-undefined-byte", "f.py", b"# coding: cp1252\nX = '\x81'\n" + LF401_PY, "bad-encoding",
     "line 2: byte 0x81 (byte offset 22) is not valid cp1252, the encoding line 1 declares"),
    # (In a comment CPython lets it pass when utf-8 is declared; lockfix still skips it.)
    ("utf8-declared", "f.py", b"# coding: utf-8\nX = 'caf\xe9'\n" + LF401_PY, "invalid-utf8",
     "line 2: invalid UTF-8 (byte offset 24)"),
    ("declaration-under-code", "f.py", b"import os\n# coding: latin-1\n# caf\xe9\n" + LF401_PY, "invalid-utf8",
     "line 3: invalid UTF-8 (byte offset 33)"),
    ("bom-and-latin1", "f.py", b"\xef\xbb\xbf# coding: latin-1\n" + LF401_PY, "bad-encoding",
     "UTF-8 byte-order mark, but line 1 declares encoding 'latin-1' (Python rejects the file: encoding problem "
     "with BOM)"),
    ("utf16-declared", "f.py", b"# coding: utf-16\n" + LF401_PY, "bad-encoding",
     "line 1 declares encoding 'utf-16', which is not ASCII-compatible (lockfix reads Python source only in "
     "encodings that keep ASCII as it is)"),
    ("utf16-python", "f.py", b"\xff\xfe" + LF401_PY.decode().encode("utf-16-le"), "bad-encoding",
     "UTF-16 LE text (byte-order mark): Python source must be in an ASCII-compatible encoding"),
    ("binary-python", "f.py", b"# coding: latin-1\n\x00\x01\x02\xff", "binary", "binary file (NUL byte)"),
    ("binary-ts", "f.ts", b"export const x = 1;\n\x00\x01\x02", "binary", "binary file (NUL byte)"),
    ("utf16-nul-character", "f.ts", b"\xff\xfe" + "let x = 1;\n\0".encode("utf-16-le"), "binary",
     "binary file (NUL character in its UTF-16LE text)"),
    ("utf16-odd-length", "f.ts", b"\xff\xfe" + "let x = 1;\n".encode("utf-16-le") + b"x", "bad-encoding",
     "line 2: ends inside a UTF-16LE character (byte offset 24)"),
    ("utf16-lone-surrogate", "f.ts", b"\xfe\xff" + "let x;\n".encode("utf-16-be") + b"\xdc\x00", "bad-encoding",
     "line 2: invalid UTF-16BE (byte offset 16)"),
]


@pytest.mark.parametrize("case, name, data, kind, reason", SKIPPED, ids=[c[0] for c in SKIPPED])
def test_unreadable_files_are_skipped_with_their_reason(tmp_path, case, name, data, kind, reason):
    (tmp_path / name).write_bytes(data)
    r = run(["scan", "--no-config", name], tmp_path)
    assert r.returncode == 0
    assert r.stderr.decode() == "lockfix: skipping %s: %s\n" % (name, reason)
    js = json.loads(run(["scan", "--no-config", "--format", "json", name], tmp_path).stdout)
    assert js["skipped"] == [{"path": name, "kind": kind, "reason": reason}]
    f = run(["fix", "--no-config", name, "--apply"], tmp_path)
    assert f.returncode == 0
    assert (tmp_path / name).read_bytes() == data


def test_skips_agree_with_python(tmp_path):
    """The Python files skipped above are the ones CPython refuses too, and a
    file it reads through its declaration is scanned. Run as scripts: that is
    the tokenizer's strict path (compile() of bytes lets some through)."""
    for case, name, data, _, _ in SKIPPED:
        if name.endswith(".py") and not case.startswith("binary"):
            (tmp_path / "x.py").write_bytes(data)
            p = subprocess.run([PYTHON, "x.py"], cwd=tmp_path, capture_output=True)
            assert p.returncode != 0 and b"SyntaxError" in p.stderr, case
    ok = b"\n# vim: fileencoding=iso-8859-15\n# \xa4\n" + LF401_PY  # line 2 under a blank line 1
    (tmp_path / "ok.py").write_bytes(ok)
    subprocess.run([PYTHON, "ok.py"], cwd=tmp_path, check=True)
    r = run(["scan", "--no-config", "ok.py"], tmp_path)
    assert r.returncode == 1 and r.stderr == b""
    assert r.stdout.decode().startswith("ok.py:8:11: LF401 ")


def test_verify_rollback_restores_the_files_own_bytes(tmp_path):
    """fix --verify: a latin-1 module whose fix the command rejects is put back
    byte for byte (the rollback journal keeps the bytes as read, not the UTF-8)."""
    name = "latin1_lf401.py"
    (tmp_path / "integ").mkdir()
    shutil.copyfile(CASES / (name + ".in"), tmp_path / "integ" / name)
    rejects_fix = "! grep -q uuid {dir}/" + name
    r = run(["fix", "--no-config", ".", "--apply", "--verify", rejects_fix], tmp_path)
    assert r.returncode == 1, r.stderr
    assert b"integ: rolled back: the verify command failed after the fixes (exit 1)" in r.stderr
    assert (tmp_path / "integ" / name).read_bytes() == (CASES / (name + ".in")).read_bytes()
    r = run(["fix", "--no-config", ".", "--apply", "--verify", "true"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "integ" / name).read_bytes() == (EXPECTED / (name + ".fixed")).read_bytes()


@pytest.mark.parametrize("eol", [b"\r\n", b"\r"], ids=["CRLF", "CR"])
@pytest.mark.parametrize("name", ["latin1_lf401.py", "cp1252_lf201_lf401.py", "bom_lf401.ts"])
def test_line_endings_survive_the_encoding(tmp_path, name, eol):
    """Lone CRs and CRLF in a transcoded file: same findings, and the fix
    writes the expected file with the file's own line ending."""
    data = (CASES / (name + ".in")).read_bytes().replace(b"\n", eol)
    (tmp_path / name).write_bytes(data)
    js = json.loads(run(["scan", "--no-config", "--format", "json", name], tmp_path).stdout)
    assert [(f["rule_id"], f["line"], f["column"]) for f in js["findings"]] == \
        [(rule, line, col) for rule, line, col, _ in FILES[name][2]]
    r = run(["fix", "--no-config", name, "--apply"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / name).read_bytes() == (EXPECTED / (name + ".fixed")).read_bytes().replace(b"\n", eol)
