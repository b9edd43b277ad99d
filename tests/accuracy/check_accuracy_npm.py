#!/usr/bin/env python3
"""The npm real-package accuracy suite: scan the pinned npm packages of
deps/accuracy-npm (installed by the accuracy.npm_setup fixture with
`npm ci --ignore-scripts`) with the engine, with and without prefilters (both
must agree), and compare the findings with tests/accuracy/expected-npm.tsv,
where every finding and every known miss was reviewed by hand. Prints per-rule
precision and recall.

usage: check_accuracy_npm.py SCAN ROOT WORK
  SCAN  the lf_engine_scan test driver
  ROOT  the source tree
  WORK  the install directory (its node_modules/ holds the corpus)
"""
import collections
import json
import os
import shutil
import subprocess
import sys


def load_expected(path):
    rows = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 4 or cols[2] not in ("bug", "fp", "miss") or not cols[3].strip():
                sys.exit(f"{path}:{n}: want 4 tab-separated columns (location, rule, bug|fp|miss, reason)")
            rows.append(tuple(cols))
    return rows


def stage(root, work):
    """Copy each pinned package (not its nested node_modules: those are other
    packages, pinned only as dependencies) into WORK/pkgs/<name>, so the scan
    sees exactly the corpus and reports paths as <name>/<path>."""
    deps = json.load(open(os.path.join(root, "deps/accuracy-npm/package.json"), encoding="utf-8"))["dependencies"]
    pkgs = os.path.join(work, "pkgs")
    shutil.rmtree(pkgs, ignore_errors=True)
    for name in sorted(deps):
        src = os.path.join(work, "node_modules", name)
        if not os.path.isdir(src):
            sys.exit(f"{src} is missing: the accuracy.npm_setup fixture did not install the corpus")
        shutil.copytree(src, os.path.join(pkgs, name), symlinks=True,
                        ignore=shutil.ignore_patterns("node_modules"))
    return pkgs


def scan(tool, pkgs, prefilter):
    args = [tool] + ([] if prefilter else ["--no-prefilter"]) + ["."]
    out = subprocess.run(args, cwd=pkgs, capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        loc, rule = line.rsplit(": ", 1)
        found.append((loc[2:] if loc.startswith("./") else loc, rule))
    return found


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tool, root, work = sys.argv[1:4]
    pkgs = stage(root, work)
    with_pf = scan(tool, pkgs, True)
    without_pf = scan(tool, pkgs, False)
    if with_pf != without_pf:
        sys.exit("prefilters change the findings on the npm corpus:\n"
                 + "\n".join(f"  {a}" for a in sorted(set(with_pf) ^ set(without_pf))))
    rows = load_expected(os.path.join(root, "tests/accuracy/expected-npm.tsv"))
    want = sorted((loc, rule) for loc, rule, verdict, _ in rows if verdict != "miss")
    got = sorted(with_pf)
    stats = collections.defaultdict(collections.Counter)
    for _, rule, verdict, _ in rows:
        stats[rule][verdict] += 1
    print("rule   bugs found  false pos  missed  precision  recall")
    tot = collections.Counter()
    for rule in sorted(stats):
        c = stats[rule]
        tot.update(c)
        prec = c["bug"] / (c["bug"] + c["fp"]) if c["bug"] + c["fp"] else 1.0
        rec = c["bug"] / (c["bug"] + c["miss"]) if c["bug"] + c["miss"] else 1.0
        print(f"{rule}  {c['bug']:10d} {c['fp']:10d} {c['miss']:7d} {prec:9.0%} {rec:7.0%}")
    prec = tot["bug"] / (tot["bug"] + tot["fp"]) if tot["bug"] + tot["fp"] else 1.0
    rec = tot["bug"] / (tot["bug"] + tot["miss"]) if tot["bug"] + tot["miss"] else 1.0
    print(f"all    {tot['bug']:10d} {tot['fp']:10d} {tot['miss']:7d} {prec:9.0%} {rec:7.0%}")
    if got != want:
        msg = ["the npm corpus findings differ from tests/accuracy/expected-npm.tsv (review each, then record it):"]
        msg += [f"  new:  {loc} {rule}" for loc, rule in sorted(set(got) - set(want))]
        msg += [f"  gone: {loc} {rule}" for loc, rule in sorted(set(want) - set(got))]
        sys.exit("\n".join(msg))
    print(f"{len(got)} findings match the reviewed expectations")


if __name__ == "__main__":
    main()
