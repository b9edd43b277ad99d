"""What both real-package suites share (check_accuracy.py: Debian's Python
packages; check_accuracy_npm.py: npm packages): the reviewed expectation file,
the scan with and without prefilters, and the comparison with its per-rule
precision and recall."""
import collections
import subprocess
import sys


def load_expected(path):
    """Rows (location, rule, bug|fp|miss, reason) of a reviewed expectation file."""
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


def scan(tool, pkgs, prefilter, strip=""):
    """(location, rule) of every finding under pkgs, locations relative to it
    (and without `strip`, a path prefix some packages' files repeat)."""
    args = [tool] + ([] if prefilter else ["--no-prefilter"]) + ["."]
    out = subprocess.run(args, cwd=pkgs, capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        loc, rule = line.rsplit(": ", 1)
        loc = loc[2:] if loc.startswith("./") else loc
        found.append((loc.replace(strip, "") if strip else loc, rule))
    return found


def ratio(num, den):
    return num / den if den else 1.0


def check(tool, pkgs, expected, corpus, strip=""):
    """Scan with and without prefilters (they must agree), print per-rule
    precision and recall from the expectation file, and exit non-zero unless
    the findings are exactly the reviewed ones."""
    with_pf = scan(tool, pkgs, True, strip)
    without_pf = scan(tool, pkgs, False, strip)
    if with_pf != without_pf:
        sys.exit(f"prefilters change the findings on the {corpus}:\n"
                 + "\n".join(f"  {a}" for a in sorted(set(with_pf) ^ set(without_pf))))
    rows = load_expected(expected)
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
        print(f"{rule}  {c['bug']:10d} {c['fp']:10d} {c['miss']:7d} "
              f"{ratio(c['bug'], c['bug'] + c['fp']):9.0%} {ratio(c['bug'], c['bug'] + c['miss']):7.0%}")
    print(f"all    {tot['bug']:10d} {tot['fp']:10d} {tot['miss']:7d} "
          f"{ratio(tot['bug'], tot['bug'] + tot['fp']):9.0%} {ratio(tot['bug'], tot['bug'] + tot['miss']):7.0%}")
    if got != want:
        msg = [f"the {corpus} findings differ from {expected} (review each, then record it):"]
        msg += [f"  new:  {loc} {rule}" for loc, rule in sorted(set(got) - set(want))]
        msg += [f"  gone: {loc} {rule}" for loc, rule in sorted(set(want) - set(got))]
        sys.exit("\n".join(msg))
    print(f"{len(got)} findings match the reviewed expectations")
