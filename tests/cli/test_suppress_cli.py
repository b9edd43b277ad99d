"""Suppression comments, end to end."""
import json

from lfcli import STATE_PY, run, write


def findings(path):
    r = run("scan", "--no-config", "--format", "json", path)
    return [(f["line"], f["rule_id"]) for f in json.loads(r.stdout)["findings"]]


def test_suppressions(tmp_path):
    base = STATE_PY.splitlines(keepends=True)
    p = tmp_path / "s.py"
    write(p, STATE_PY)
    assert findings(p) == [(6, "LF401"), (14, "LF201"), (21, "LF303")]

    # Same line, listed rule; the others stay.
    lines = list(base)
    lines[5] = lines[5].rstrip("\n") + "  # lockfix: ignore[LF401]\n"
    write(p, "".join(lines))
    assert findings(p) == [(14, "LF201"), (21, "LF303")]

    # Same line, another rule: no effect.
    lines = list(base)
    lines[5] = lines[5].rstrip("\n") + "  # lockfix: ignore[LF201]\n"
    write(p, "".join(lines))
    assert findings(p) == [(6, "LF401"), (14, "LF201"), (21, "LF303")]

    # Line above (comment-only line), comma list; a bare directive.
    lines = list(base)
    lines.insert(5, "    # lockfix: ignore[LF303, LF401]\n")
    lines[14] = lines[14].rstrip("\n") + "  # lockfix: ignore\n"  # the realpath line, now 15
    write(p, "".join(lines))
    assert findings(p) == [(22, "LF303")]

    # In a string, not a comment: no effect (on the line above, and on the line).
    lines = list(base)
    lines.insert(5, '    "# lockfix: ignore[LF401]"\n')
    lines[21] = lines[21].rstrip("\n") + "; _ = '# lockfix: ignore'\n"  # the os.kill line, now 22
    write(p, "".join(lines))
    assert findings(p) == [(7, "LF401"), (15, "LF201"), (22, "LF303")]
