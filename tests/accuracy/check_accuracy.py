#!/usr/bin/env python3
"""The real-code accuracy suite: fetch the pinned Debian packages, scan them
with the engine (with and without prefilters: both must agree), and compare the
findings with tests/accuracy/expected.tsv, where every finding and every known
miss was reviewed by hand. Prints per-rule precision and recall.

usage: check_accuracy.py SCAN ROOT WORK [--summary]
  SCAN  the lf_engine_scan test driver
  ROOT  the source tree
  WORK  a directory in the build tree for the downloaded and unpacked packages
"""
import collections
import os
import subprocess
import sys

PREFIX = "/usr/lib/python3/dist-packages"


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


def scan(tool, pkgs, prefilter):
    args = [tool] + ([] if prefilter else ["--no-prefilter"]) + ["."]
    out = subprocess.run(args, cwd=pkgs, capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        loc, rule = line.rsplit(": ", 1)
        loc = loc[2:] if loc.startswith("./") else loc
        found.append((loc.replace(PREFIX, ""), rule))
    return found


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tool, root, work = sys.argv[1:4]
    rc = subprocess.run([os.path.join(root, "scripts/realpkgs.sh"),
                         os.path.join(root, "tests/accuracy/packages.txt"), work]).returncode
    if rc != 0:
        sys.exit(f"could not fetch the corpus (realpkgs.sh exit {rc})")
    pkgs = os.path.join(work, "pkgs")
    with_pf = scan(tool, pkgs, True)
    without_pf = scan(tool, pkgs, False)
    if with_pf != without_pf:
        sys.exit("prefilters change the findings on the corpus:\n"
                 + "\n".join(f"  {a}" for a in sorted(set(with_pf) ^ set(without_pf))))
    rows = load_expected(os.path.join(root, "tests/accuracy/expected.tsv"))
    want = sorted((loc, rule) for loc, rule, verdict, _ in rows if verdict != "miss")
    got = sorted(with_pf)
    stats = collections.defaultdict(lambda: collections.Counter())
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
    prec = tot["bug"] / (tot["bug"] + tot["fp"])
    rec = tot["bug"] / (tot["bug"] + tot["miss"])
    print(f"all    {tot['bug']:10d} {tot['fp']:10d} {tot['miss']:7d} {prec:9.0%} {rec:7.0%}")
    if got != want:
        extra = sorted(set(got) - set(want))
        gone = sorted(set(want) - set(got))
        msg = ["the corpus findings differ from tests/accuracy/expected.tsv (review each, then record it):"]
        msg += [f"  new:  {loc} {rule}" for loc, rule in extra]
        msg += [f"  gone: {loc} {rule}" for loc, rule in gone]
        sys.exit("\n".join(msg))
    print(f"{len(got)} findings match the reviewed expectations")


if __name__ == "__main__":
    main()
