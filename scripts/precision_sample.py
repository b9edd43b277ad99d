#!/usr/bin/env python3
"""Draw a random sample of findings, stratified by rule, for judging precision
at scale by hand (issue 19): `lockfix scan ROOT --format json -o report.json`
over whole repositories, then

    scripts/precision_sample.py report.json ROOT --per-rule 10 --seed 7 -o sample.json

writes, per sampled finding, its rule, path, line, message and the source
around it (the judge needs nothing else), with an empty `verdict` and `why`
for the judge to fill: `true`, `false`, `doubtful` or `duplicate`. Then

    scripts/precision_sample.py --score sample.json

prints precision per rule and overall, as sampled and weighted by each rule's
share of all findings. Doubtful and duplicate verdicts are counted apart, not
as true."""
import argparse
import collections
import json
import os
import random
import sys


def excerpt(root, path, line, around=20):
    try:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError as e:
        return f"(unreadable: {e})"
    lo, hi = max(1, line - around), min(len(lines), line + around)
    return "\n".join(f"{'>>' if n == line else '  '}{n:5d} {lines[n - 1]}" for n in range(lo, hi + 1))


def draw(args):
    findings = json.load(open(args.report))["findings"]
    by_rule = collections.defaultdict(list)
    for f in findings:
        by_rule[f["rule_id"]].append(f)
    rng = random.Random(args.seed)
    sample = []
    for rule in sorted(by_rule):
        pool = by_rule[rule]
        for f in rng.sample(pool, min(args.per_rule, len(pool))):
            sample.append({"rule": rule, "path": f["path"], "line": f["line"], "message": f["message"],
                           "code": excerpt(args.root, f["path"], f["line"]), "verdict": "", "why": ""})
    out = {"report": os.path.abspath(args.report), "seed": args.seed, "per_rule": args.per_rule,
           "totals": {r: len(v) for r, v in sorted(by_rule.items())}, "sample": sample}
    json.dump(out, open(args.output, "w"), indent=1)
    print(f"{len(sample)} findings sampled from {len(findings)} ({', '.join(f'{r} {len(v)}' for r, v in sorted(by_rule.items()))})")


def score(path):
    doc = json.load(open(path))
    totals = doc["totals"]
    per = collections.defaultdict(collections.Counter)
    for s in doc["sample"]:
        per[s["rule"]][s["verdict"] or "unjudged"] += 1
    print(f"{'rule':6} {'found':>6} {'judged':>6} {'true':>5} {'false':>5} {'doubt':>5} {'dup':>4} {'precision':>9}")
    all_true = all_judged = 0
    weighted = 0.0
    n_total = sum(totals.values())
    for rule in sorted(per):
        c = per[rule]
        judged = c["true"] + c["false"]
        prec = c["true"] / judged if judged else float("nan")
        all_true += c["true"]
        all_judged += judged
        if judged:
            weighted += prec * totals[rule] / n_total
        print(f"{rule:6} {totals[rule]:6d} {sum(c.values()):6d} {c['true']:5d} {c['false']:5d} {c['doubtful']:5d} "
              f"{c['duplicate']:4d} {prec:9.0%}")
    print(f"overall as sampled: {all_true}/{all_judged} = {all_true / max(all_judged, 1):.0%} "
          f"(doubtful and duplicate left out); weighted by each rule's share: {weighted:.0%}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("report", nargs="?")
    ap.add_argument("root", nargs="?")
    ap.add_argument("--per-rule", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("-o", "--output", default="sample.json")
    ap.add_argument("--score", metavar="SAMPLE")
    args = ap.parse_args()
    if args.score:
        score(args.score)
    elif args.report and args.root:
        draw(args)
    else:
        ap.error("give REPORT ROOT, or --score SAMPLE")


if __name__ == "__main__":
    sys.exit(main())
