"""Item 7, rule documents (--rules DIR) and .lockfix.json: malformed, deeply
nested, huge arrays, invalid queries, catastrophic regex predicates, bytes that
are not UTF-8. Each is exit 2 with a message naming the file (and the line), or
a normal scan; none hangs (the timeouts are hang guards, not measurements)."""
import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from robust import LF401_PY, run  # noqa: E402


def rule_doc(query, **over):
    doc = {"id": "LF991", "name": "hostile", "summary": "s", "severity": "warning", "languages": ["python"],
           "message": "m", "docs": {"what": "w", "why": "w", "example": "e", "use_instead": "u", "fix_safety": "f"},
           "fix": {"safety": "none"}, "queries": {"python": [query]}}
    doc.update(over)
    return json.dumps(doc).encode()


def scan_with_rules(tmp_path, data, target=None):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "r.json").write_bytes(data)
    (tmp_path / "t.py").write_bytes(target if target is not None else LF401_PY)
    return run(["scan", "--no-config", "--rules", "rules", "t.py"], cwd=tmp_path, timeout=120)


LONG_A = b'X = "' + b"a" * 20000 + b'"\n'

RULE_CASES = [
    ("truncated", b'{"id": "LF991", "name": \n', "lockfix: rules/r.json: line 1: invalid JSON near"),
    ("nested-100k", b"[" * 100000 + b"]" * 100000, "lockfix: rules/r.json: line 1: invalid JSON near \"[[[["),
    ("not-utf8", b'{"id": "LF991\xff"}', "lockfix: rules/r.json: line 1: "),
    ("bad-node-type", rule_doc("((call function: (no_such_node) @finding))"), "lockfix: rules/r.json: line 1: "),
    ("bad-syntax", rule_doc("((call @finding"), "lockfix: rules/r.json: line 1: "),
    ("backreference", rule_doc('((string) @finding (#match? @finding "(.*)(.*)\\\\1\\\\2b"))'),
     "regex \"(.*)(.*)\\1\\2b\" refused: back-references are not allowed (their matching time is exponential)"),
    ("nested-expansion", rule_doc('((string) @finding (#match? @finding "(((a{32}){32}){32})"))'),
     "regex \"(((a{32}){32}){32})\" refused: it expands to more than 4096 NFA states"),
    ("unsupported-escape", rule_doc('((string) @finding (#match? @finding "\\\\w+"))'),
     "regex \"\\w+\" refused: escapes other than a backslash before punctuation are not supported"),
    ("counts-sum", rule_doc('((string) @finding (#match? @finding "' + "a{1,30}" * 9 + '"))'),
     "refused: counted repetitions adding up to more than 256"),
    ("huge-count", rule_doc('((string) @finding (#match? @finding "a{1,1000}b"))'),
     "refused: a counted repetition {m,n} above 32"),
    ("long-regex", rule_doc('((string) @finding (#match? @finding "' + "a" * 600 + '"))'),
     "refused: longer than 512 bytes"),
    ("bad-regex", rule_doc('((string) @finding (#match? @finding "(unclosed"))'), "bad regex \"(unclosed\""),
]


@pytest.mark.parametrize("case, data, message", RULE_CASES, ids=[c[0] for c in RULE_CASES])
def test_hostile_rule_document_is_refused(tmp_path, case, data, message):
    r = scan_with_rules(tmp_path, data, LONG_A)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert message.encode() in r.stderr, r.stderr
    assert r.stderr.startswith(b"lockfix: rules/r.json")
    assert r.stdout == b""


def test_bounded_regex_runs_on_a_long_string(tmp_path):
    r = scan_with_rules(tmp_path, rule_doc('((string) @finding (#match? @finding "^.(x|a)*a*(b|a)*.$"))'), LONG_A)
    assert r.returncode == 1, r.stderr
    assert b"t.py:1:5: LF991 m" in r.stdout


# Shapes that make a backtracking matcher cubic or exponential (POSIX regexec, which
# lockfix used before lf_re, had to refuse them): matched in linear time now, so
# they are accepted, and a 20,000-byte string takes no longer than any other
# (tests/core/test_re.c counts the steps).
CATASTROPHIC_FOR_BACKTRACKING = [("(a+)+b", 0), ("(a|a?)+b", 0), ("(ab|a)*c", 0), ("(a{1,30}){1,30}b", 0),
                                 ("^.(a+)+.$", 1)]


@pytest.mark.parametrize("pattern, found", CATASTROPHIC_FOR_BACKTRACKING,
                         ids=[c[0] for c in CATASTROPHIC_FOR_BACKTRACKING])
def test_regex_catastrophic_for_backtracking_is_linear(tmp_path, pattern, found):
    r = scan_with_rules(tmp_path, rule_doc('((string) @finding (#match? @finding "%s"))' % pattern), LONG_A)
    assert r.returncode == found, r.stderr
    assert (b"t.py:1:5: LF991 m" in r.stdout) == bool(found)


def test_rule_with_a_huge_query_array(tmp_path):
    doc = json.loads(rule_doc("(identifier) @finding"))
    doc["queries"]["python"] = ["; comment %d" % i for i in range(50000)] + ["((identifier) @finding (#eq? @finding \"os\"))"]
    r = scan_with_rules(tmp_path, json.dumps(doc).encode())
    assert r.returncode == 1, r.stderr
    assert r.stdout.count(b"LF991") == 2  # import os, os.replace


def write_config(tmp_path, data):
    (tmp_path / ".lockfix.json").write_bytes(data)
    (tmp_path / "t.py").write_bytes(LF401_PY)
    return run(["scan", "."], cwd=tmp_path, timeout=120)


CONFIG_CASES = [
    ("truncated", b'{"exclude": [', "lockfix: .lockfix.json:1: invalid JSON: unexpected end of file\n"),
    ("nested-50k", b'{"exclude": ' + b"[" * 50000 + b"]" * 50000 + b"}",
     "lockfix: .lockfix.json:1: invalid JSON near '[[[[[[[[[[[[[[[[[[[['\n"),
    ("not-utf8", b'\xff\xfe{}', "lockfix: .lockfix.json:1: invalid JSON near '\xff\xfe{}'\n"),
    ("duplicate-key", b'{"select": ["LF101"], "select": ["LF201"]}', "lockfix: .lockfix.json:1: duplicate key \"select\"\n"),
    ("too-large", b'{"exclude": ["' + b"x" * (1024 * 1024) + b'"]}',
     "lockfix: .lockfix.json: cannot read config: larger than 1048576 bytes\n"),
    ("bad-element", b'{"exclude": ["a", "b",\n 7]}', "lockfix: .lockfix.json:2: \"exclude\"[2] must be a non-empty string\n"),
]


@pytest.mark.parametrize("case, data, message", CONFIG_CASES, ids=[c[0] for c in CONFIG_CASES])
def test_hostile_config_is_refused(tmp_path, case, data, message):
    r = write_config(tmp_path, data)
    assert r.returncode == 2, r.stderr
    assert r.stderr == message.encode("latin-1") if case == "not-utf8" else r.stderr == message.encode()
    assert r.stdout == b""


def test_config_with_a_huge_exclude_array(tmp_path):
    """60,000 globs (just under the 1 MiB cap): loading used to walk the array
    from its start for every element (quadratic: 304 s for 70,000)."""
    globs = ["d%d/*.py" % i for i in range(60000)] + ["skipped/**"]
    r = write_config(tmp_path, json.dumps({"exclude": globs}).encode())
    (tmp_path / "skipped").mkdir()
    (tmp_path / "skipped" / "s.py").write_bytes(LF401_PY)
    r = run(["scan", "."], cwd=tmp_path, timeout=120)
    assert r.returncode == 1, r.stderr
    assert r.stdout.count(b"LF401") == 1 and b"skipped/s.py" not in r.stdout
