#!/usr/bin/env python3
"""Fix reach per rule on a labelled corpus: of the hand-confirmed bugs, how
many does `lockfix fix` patch, and does every patched file still compile?

    scripts/fix-reach.py CORPUS --scorer SCORE_PY [--lockfix BIN]
                         [--typescript NODE_MODULES] [--json OUT]

CORPUS is the OUT of scripts/genre-corpus.sh (or the shared corpus): one
directory per set (python/, typescript/), each with MANIFEST.json. The files
are public code and are only read: the fixes are applied to a copy in a
temporary directory.

Per set and rule:
  bugs      expected entries that are not doubtful (the labelled real bugs);
  found     bugs a finding of that rule matches (the scorer's matching: same
            file and rule, line within the tolerance);
  patched   found bugs whose finding `lockfix fix --apply --unsafe-fixes`
            fixed (it carried an applicable fix and the run did not list it as
            "not fixed");
  declined  found bugs left unpatched, each with the reason lockfix gave.
Every patched file must still compile (Python compile(); JS node --check;
TS transpiled with the TypeScript package at --typescript, then node --check):
a file that compiled before and not after is a failure (exit 1).
"""
import argparse
import collections
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


safety = load_module("patch_safety", os.path.join(HERE, "patch-safety.py"))

NOT_FIXED = re.compile(r"^(?P<path>\S+?):(?P<line>\d+):\d+: (?P<rule>LF\d+) not fixed: (?P<reason>.*)$")


def run_set(args, scorer, set_dir, tmp):
    manifest_list = json.load(open(os.path.join(set_dir, "MANIFEST.json")))
    manifest = {e["file"]: e for e in manifest_list}
    work = os.path.join(tmp, os.path.basename(set_dir))
    shutil.copytree(set_dir, work)
    os.unlink(os.path.join(work, "MANIFEST.json"))
    scan = subprocess.run([args.lockfix, "scan", ".", "--format", "json", "--no-cache", "--no-config"],
                          cwd=work, capture_output=True, text=True)
    if scan.returncode >= 2:
        raise SystemExit("fix-reach: scan failed: " + scan.stderr[-500:])
    report = json.loads(scan.stdout)
    findings = [{"file": os.path.basename(f["path"]), "rule": f["rule_id"], "line": f["line"],
                 "fixable": bool(f.get("fix", {}).get("available"))} for f in report["findings"]]
    matched, _ = scorer.match(manifest, findings, args.tolerance)

    files = sorted(os.path.join(work, f) for f in manifest if os.path.exists(os.path.join(work, f)))
    before = {f: open(f, "rb").read() for f in files}
    compiled_before = safety.compile_many(files, args.typescript)
    fix = subprocess.run([args.lockfix, "fix", ".", "--apply", "--unsafe-fixes", "--no-config"],
                         cwd=work, capture_output=True, text=True)
    if fix.returncode >= 2:
        raise SystemExit("fix-reach: fix failed: " + fix.stderr[-800:])
    not_fixed = {}
    for line in fix.stderr.splitlines():
        m = NOT_FIXED.match(line.strip())
        if m:
            not_fixed[(os.path.basename(m.group("path")), int(m.group("line")), m.group("rule"))] = m.group("reason")
    changed = [f for f in files if open(f, "rb").read() != before[f]]
    compiled_after = safety.compile_many(changed, args.typescript)
    broken = [os.path.basename(f) for f in changed
              if compiled_before.get(f, (None,))[0] and compiled_after.get(f, (None,))[0] is False]
    changed_names = {os.path.basename(f) for f in changed}

    rows = collections.OrderedDict()
    declined = []
    for fname, entry in sorted(manifest.items()):
        for ei, e in enumerate(entry["expected"]):
            if e.get("doubtful"):
                continue
            r = rows.setdefault(e["rule"], {"bugs": 0, "found": 0, "patched": 0, "declined": 0})
            r["bugs"] += 1
            fi = matched.get((fname, ei))
            if fi is None:
                continue
            r["found"] += 1
            f = findings[fi]
            key = (fname, f["line"], f["rule"])
            if f["fixable"] and key not in not_fixed and fname in changed_names:
                r["patched"] += 1
            else:
                r["declined"] += 1
                declined.append((fname, f["line"], f["rule"], not_fixed.get(key, "no fix offered for this rule here")))
    return rows, declined, broken, len(changed)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--scorer", required=True, help="the corpus scorer (score.py), for its matching")
    ap.add_argument("--lockfix", default=os.path.join(HERE, "..", "build", "analyzer", "lockfix"))
    ap.add_argument("--typescript", default=os.environ.get("LOCKFIX_TS_NODE_MODULES", ""))
    ap.add_argument("--tolerance", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("-v", action="store_true", help="list every declined bug with its reason")
    args = ap.parse_args()
    args.lockfix = os.path.abspath(args.lockfix)
    scorer = load_module("score", args.scorer)
    out = {}
    failed = False
    with tempfile.TemporaryDirectory(prefix="fix-reach-") as tmp:
        for name in ("python", "typescript"):
            set_dir = os.path.join(args.corpus, name)
            if not os.path.isfile(os.path.join(set_dir, "MANIFEST.json")):
                continue
            rows, declined, broken, n_changed = run_set(args, scorer, set_dir, tmp)
            print("== %s (%d files patched)" % (name, n_changed))
            print("%-6s %5s %6s %8s %9s %7s" % ("rule", "bugs", "found", "patched", "declined", "reach"))
            tot = collections.Counter()
            for rule in sorted(rows):
                r = rows[rule]
                tot.update(r)
                print("%-6s %5d %6d %8d %9d %6.0f%%" % (rule, r["bugs"], r["found"], r["patched"], r["declined"],
                                                     100.0 * r["patched"] / r["bugs"] if r["bugs"] else 0))
            print("%-6s %5d %6d %8d %9d %6.0f%%" % ("all", tot["bugs"], tot["found"], tot["patched"], tot["declined"],
                                                 100.0 * tot["patched"] / tot["bugs"] if tot["bugs"] else 0))
            if args.v:
                for d in declined:
                    print("  declined %s:%d %s: %s" % d)
            for b in broken:
                print("  FAIL: %s compiled before the fix and not after" % b)
            failed = failed or bool(broken)
            out[name] = {"rules": rows, "declined": declined, "broken": broken}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
