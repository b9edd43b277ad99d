#!/usr/bin/env python3
"""How faithful are the ast-grep stand-ins to lockfix's rules?

Runs the ast-grep rules in this directory over the examples that each lockfix
rule carries in rules/<ID>-*.json ("tests": "valid" must give no finding,
"invalid" gives findings at [line, col], 1-based) and prints, per rule, how
many examples ast-grep gets right. A benchmark aid, not a test: a mismatch is
a documented difference (docs/benchmarks.md), not a failure.

Then scans fixtures/ and each tests/rules/cases/<ID>/ with the ast-grep rules
and compares with fixtures/expected/findings.txt and the cases' expected.txt
(path:line:col: RULE), the exact findings lockfix must report there.

Usage: check_rules.py AST_GREP_BINARY [REPO_ROOT]
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))


def main():
    sg = os.path.abspath(sys.argv[1]) if os.sep in sys.argv[1] else sys.argv[1]
    repo = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "..", ".."))
    rules_dir = os.path.join(repo, "rules")
    total_ok = total = 0
    for path in sorted(glob.glob(os.path.join(rules_dir, "*.json"))):
        with open(path, encoding="utf-8") as fh:
            rule = json.load(fh)
        if "python" not in rule.get("languages", []):
            continue
        rid = rule["id"]
        tests = rule.get("tests", {})
        cases = [(c, []) for c in tests.get("valid", [])]
        cases += [(c["code"], [tuple(f) for f in c["findings"]]) for c in tests.get("invalid", [])]
        ok = 0
        misses = []
        with tempfile.TemporaryDirectory() as tmp:
            for i, (code, want) in enumerate(cases):
                with open(os.path.join(tmp, f"case{i:03d}.py"), "w", encoding="utf-8") as fh:
                    fh.write("\n".join(code) + "\n")
            proc = subprocess.run([sg, "scan", "-c", os.path.join(here, "sgconfig.yml"),
                                   "--filter", f"^{rid}$", "--json=stream", tmp],
                                  capture_output=True, text=True)
            got = {}
            for line in proc.stdout.splitlines():
                m = json.loads(line)
                start = m["range"]["start"]
                got.setdefault(os.path.basename(m["file"]), []).append((start["line"] + 1, start["column"] + 1))
        for i, (code, want) in enumerate(cases):
            have = sorted(got.get(f"case{i:03d}.py", []))
            if have == sorted(want):
                ok += 1
            else:
                kind = "valid" if not want else "invalid"
                misses.append(f"    {kind} case {i}: lockfix {sorted(want)} ast-grep {have}")
        total_ok += ok
        total += len(cases)
        print(f"{rid}: ast-grep agrees on {ok}/{len(cases)} of the rule's examples")
        for m in misses:
            print(m)
    print(f"rule examples overall: {total_ok}/{total}")
    check_fixtures(sg, repo)


def check_fixtures(sg, repo):
    trees = [("fixtures", os.path.join("fixtures", "expected", "findings.txt"))]
    cases = os.path.join(repo, "tests", "rules", "cases")
    if os.path.isdir(cases):
        for d in sorted(os.listdir(cases)):
            if os.path.exists(os.path.join(cases, d, "expected.txt")):
                rel = os.path.join("tests", "rules", "cases", d)
                trees.append((rel, os.path.join(rel, "expected.txt")))
    sum_want = sum_same = sum_have = 0
    for tree, expected in trees:
        if not os.path.exists(os.path.join(repo, expected)):
            continue
        with open(os.path.join(repo, expected), encoding="utf-8") as fh:
            want = set(l.strip() for l in fh if l.strip())
        proc = subprocess.run([sg, "scan", "-c", os.path.join(here, "sgconfig.yml"), "--json=stream", tree],
                              capture_output=True, text=True, cwd=repo)
        have = set()
        for line in proc.stdout.splitlines():
            m = json.loads(line)
            start = m["range"]["start"]
            have.add(f"{m['file']}:{start['line'] + 1}:{start['column'] + 1}: {m['ruleId']}")
        sum_want += len(want)
        sum_have += len(have)
        sum_same += len(want & have)
        print(f"{tree}/: lockfix expects {len(want)} findings; ast-grep reports {len(have)}, "
              f"{len(want & have)} identical (path, line, col, rule)")
        for f in sorted(want - have):
            print(f"    only lockfix:  {f}")
        for f in sorted(have - want):
            print(f"    only ast-grep: {f}")
    print(f"whole-module trees overall: lockfix {sum_want}, ast-grep {sum_have}, identical {sum_same}")


if __name__ == "__main__":
    main()
