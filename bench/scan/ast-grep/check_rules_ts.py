#!/usr/bin/env python3
"""How faithful are the TS/JS ast-grep stand-ins (ts/rules) to lockfix's TS/JS rules?

Scans the TS/JS files of fixtures/ and tests/rules/cases/ with lockfix (every
built-in rule) and with the stand-ins, and prints per rule: the findings both
report (same file and line), the ones only lockfix reports (missed by the
stand-in) and the ones only ast-grep reports. A benchmark aid, not a test: the
differences are documented in docs/benchmarks.md ("TS/JS").

Usage: check_rules_ts.py AST_GREP_BINARY LOCKFIX_BINARY [REPO_ROOT]
"""
import collections
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
TS_EXT = (".ts", ".mts", ".cts", ".js", ".mjs", ".cjs")


def main():
    sg, lockfix = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    repo = os.path.abspath(sys.argv[3] if len(sys.argv) > 3 else os.path.join(here, "..", "..", ".."))
    roots = [os.path.join(repo, "fixtures"), os.path.join(repo, "tests", "rules", "cases")]
    files = sorted(os.path.join(d, f) for r in roots for d, _, fs in os.walk(r) for f in fs if f.endswith(TS_EXT))
    lf = subprocess.run([lockfix, "scan", "--format", "json", *files], capture_output=True, text=True)
    want = set()
    for f in json.loads(lf.stdout)["findings"]:
        want.add((f["rule_id"], os.path.realpath(os.path.join(repo, f["path"])) if not os.path.isabs(f["path"])
                  else f["path"], f["line"]))
    proc = subprocess.run([sg, "scan", "-c", os.path.join(here, "ts", "sgconfig.yml"), "--json=stream", *files],
                          capture_output=True, text=True, cwd=os.path.join(here, "ts"))
    have = set()
    for line in proc.stdout.splitlines():
        m = json.loads(line)
        have.add((m["ruleId"], os.path.realpath(os.path.join(os.path.join(here, "ts"), m["file"])),
                  m["range"]["start"]["line"] + 1))
    want = {(r, os.path.realpath(p), l) for r, p, l in want}
    rules = sorted({r for r, _, _ in want | have})
    print(f"{len(files)} TS/JS files under fixtures/ and tests/rules/cases/")
    print(f"{'rule':<6} {'lockfix':>7} {'both':>5} {'missed':>6} {'extra':>5}")
    tot = collections.Counter()
    for r in rules:
        w = {x for x in want if x[0] == r}
        h = {x for x in have if x[0] == r}
        row = (len(w), len(w & h), len(w - h), len(h - w))
        for k, v in zip(("lockfix", "both", "missed", "extra"), row):
            tot[k] += v
        print(f"{r:<6} {row[0]:>7} {row[1]:>5} {row[2]:>6} {row[3]:>5}")
        for x in sorted(w - h):
            print(f"    missed: {os.path.relpath(x[1], repo)}:{x[2]}")
        for x in sorted(h - w):
            print(f"    extra:  {os.path.relpath(x[1], repo)}:{x[2]}")
    print(f"{'all':<6} {tot['lockfix']:>7} {tot['both']:>5} {tot['missed']:>6} {tot['extra']:>5}")


if __name__ == "__main__":
    main()
