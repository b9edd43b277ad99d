"""Item 7, files: huge files, huge lines, NUL bytes, invalid UTF-8, UTF-16 with
a byte-order mark, CRLF and CR-only line endings, mixed tabs and spaces. Each
case pins the exit code and the message; none touches the file."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from robust import LF401_PY, lf101_source, run  # noqa: E402

# Findings of the fixture module, (line, rule), as with "\n" line endings.
LF101_FINDINGS = [(34, "LF201"), (49, "LF401"), (57, "LF101"), (81, "LF101")]


def findings(stdout):
    out = []
    for line in stdout.decode("utf-8", "replace").splitlines():
        parts = line.split(":")
        if len(parts) > 3 and parts[1].isdigit() and parts[3].split()[0].startswith("LF"):
            out.append((int(parts[1]), parts[3].split()[0]))
    return out


def scan_one(tmp_path, name, data, *extra):
    p = tmp_path / name
    p.write_bytes(data)
    r = run(["scan", "--no-config", *extra, name], cwd=tmp_path, timeout=300)
    assert p.read_bytes() == data
    return r


SKIPPED = [
    ("huge", lambda: LF401_PY + b"#" + b"x" * (17 * 1024 * 1024) + b"\n",
     "lockfix: skipping f.py: larger than 16777216 bytes\n"),
    ("nul", lambda: LF401_PY + b"\0\n", "lockfix: skipping f.py: binary file (NUL byte)\n"),
    ("bad-utf8", lambda: LF401_PY + b"# caf\xe9\n", "lockfix: skipping f.py: line 10: invalid UTF-8 (byte offset 158)\n"),
    ("overlong-utf8", lambda: b"# \xc0\xaf\n" + LF401_PY, "lockfix: skipping f.py: line 1: invalid UTF-8 (byte offset 2)\n"),
    ("surrogate-utf8", lambda: b"# \xed\xa0\x80\n" + LF401_PY,
     "lockfix: skipping f.py: line 1: invalid UTF-8 (byte offset 2)\n"),
    ("utf16-le", lambda: b"\xff\xfe" + LF401_PY.decode().encode("utf-16-le"),
     "lockfix: skipping f.py: UTF-16 LE text (byte-order mark): Python source must be in an ASCII-compatible "
     "encoding\n"),
    ("utf16-be", lambda: b"\xfe\xff" + LF401_PY.decode().encode("utf-16-be"),
     "lockfix: skipping f.py: UTF-16 BE text (byte-order mark): Python source must be in an ASCII-compatible "
     "encoding\n"),
]


@pytest.mark.parametrize("case, make, message", SKIPPED, ids=[c[0] for c in SKIPPED])
def test_unreadable_content_is_skipped_with_its_reason(tmp_path, case, make, message):
    r = scan_one(tmp_path, "f.py", make())
    assert r.returncode == 0  # a skip alone does not fail the scan (docs/output-formats.md)
    assert r.stderr.decode() == message
    assert r.stdout == b"No findings in 0 files; 1 file skipped.\n"


def test_huge_line_is_scanned(tmp_path):
    data = LF401_PY + b'BLOB = "' + b"a" * (8 * 1024 * 1024) + b'"\n'
    r = scan_one(tmp_path, "f.py", data)
    assert r.returncode == 1, r.stderr
    assert findings(r.stdout) == [(6, "LF401")]


@pytest.mark.parametrize("eol", [b"\n", b"\r\n", b"\r"], ids=["LF", "CRLF", "CR"])
def test_line_endings_give_the_same_findings(tmp_path, eol):
    data = lf101_source().replace(b"\n", eol)
    r = scan_one(tmp_path, "f.py", data)
    assert r.returncode == 1, r.stderr
    assert findings(r.stdout) == LF101_FINDINGS


@pytest.mark.parametrize("eol", [b"\r\n", b"\r"], ids=["CRLF", "CR"])
def test_fix_keeps_the_line_ending(tmp_path, eol):
    (tmp_path / "f.py").write_bytes(LF401_PY)
    assert run(["fix", "f.py", "--apply"], cwd=tmp_path).returncode == 0
    lf_fixed = (tmp_path / "f.py").read_bytes()
    (tmp_path / "f.py").write_bytes(LF401_PY.replace(b"\n", eol))
    r = run(["fix", "f.py", "--apply"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "f.py").read_bytes() == lf_fixed.replace(b"\n", eol)
    again = run(["fix", "f.py", "--diff"], cwd=tmp_path)
    assert again.returncode == 0 and again.stdout == b""


def test_mixed_line_endings_cr_only_in_places(tmp_path):
    data = lf101_source()
    lines = data.split(b"\n")[:-1]
    # A lone CR after every other line (not before an empty line: "\r\n" is one break).
    data = b"".join(l + (b"\r" if i % 2 and i + 1 < len(lines) and lines[i + 1] else b"\n")
                    for i, l in enumerate(lines))
    assert data.count(b"\r") > 20
    r = scan_one(tmp_path, "f.py", data)
    assert r.returncode == 1
    assert findings(r.stdout) == LF101_FINDINGS


def test_utf8_bom_is_read(tmp_path):
    r = scan_one(tmp_path, "f.py", b"\xef\xbb\xbf" + LF401_PY)
    assert r.returncode == 1
    assert findings(r.stdout) == [(6, "LF401")]


def test_mixed_tabs_and_spaces(tmp_path):
    """A tab where the rest of the block uses spaces (Python 3: TabError): the
    finding is reported, the fix is refused (a rewritten block could change
    depth) and the file is left alone."""
    data = LF401_PY.replace(b"\n    with open", b"\n\twith open")
    r = scan_one(tmp_path, "f.py", data)
    assert r.returncode == 1, r.stderr
    assert findings(r.stdout) == [(6, "LF401")]
    fx = run(["fix", "f.py", "--apply"], cwd=tmp_path)
    assert fx.returncode == 2
    assert b"lockfix fix: f.py: refusing fixes: its indentation mixes tabs and spaces" in fx.stderr
    assert (tmp_path / "f.py").read_bytes() == data


def test_tabs_only_indentation_is_fixed(tmp_path):
    data = LF401_PY.replace(b"\n        ", b"\n\t\t").replace(b"\n    ", b"\n\t")
    (tmp_path / "f.py").write_bytes(data)
    fx = run(["fix", "f.py", "--apply"], cwd=tmp_path)
    assert fx.returncode == 0, fx.stderr
    compile((tmp_path / "f.py").read_bytes(), "f.py", "exec")


def test_unterminated_string_around_a_fixable_site(tmp_path):
    """A file mid-edit (an unterminated f-string) parses to a tree whose root
    is an ERROR node; the LF201 fix generator, which scan runs to count fixable
    findings, climbed to that root and asked for the parent of its null parent
    (a SIGSEGV the fuzz smoke run found). The finding is still reported, not
    counted as fixable: fixes are only made to files that parse (lf_fix would
    refuse them anyway), and `fix` says so and leaves the file alone."""
    data = (b'from pathlib import Path\n'
            b'ROOT = Path("/srv/cache")\n'
            b'def entry(key, tmp):\n'
            b'    candidate = ROOT / key\n'
            b'    tmp.replace(candidate)\n'  # LF201 needs a file the module replaces
            b'    # the guard\n'
            b'    if not candidate.resolve().is_relative_to(ROOT.resolve()):\n'
            b'        raise ValueError(f"escapes {key\n'
            b'    return candidate\n')
    r = scan_one(tmp_path, "f.py", data)
    assert r.returncode == 1, r.stderr
    assert findings(r.stdout) == [(7, "LF201")]
    assert b"Found 1 finding (1 error) in 1 file\n" in r.stdout
    fx = run(["fix", "f.py", "--apply"], cwd=tmp_path)
    assert fx.returncode == 1, fx.stderr
    assert (b"f.py:7:12: LF201 not fixed: the file does not parse cleanly, and fixes are made only to files "
            b"that do\n") in fx.stderr
    assert (tmp_path / "f.py").read_bytes() == data
