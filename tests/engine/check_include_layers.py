#!/usr/bin/env python3
"""Fail when analyzer/src's modules include each other in a cycle.

A module is a .c file with its .h (and its *_internal.h, the same module split
for size). Module A depends on B when any file of A includes a file of B. The
layers read bottom-up: lf_tree/lf_util/lf_source, the semantic models (sem/
lf_pysem, lf_tssem), the lock layers on them (lf_pylock, lf_tslock, lf_cfg), the
checks and fixes, the engine, the reports, the CLI. A cycle means two layers
cannot be understood, tested or replaced apart.

The cycles that remain are listed in KNOWN (debt, named in docs/architecture.md):
the test fails on any other cycle, and on a known one that grew a member.

Usage: check_include_layers.py SOURCE_DIR
"""
import collections
import os
import re
import sys

KNOWN = [
    # the rule loader resolves check names through the engine's registry, and
    # fix <-> engine: fixes re-scan through the engine, which hands out fixes
    {"lf_check", "lf_config", "lf_engine", "lf_fingerprint", "lf_fix", "lf_rule"},
    # the result cache reads the scan's per-file records; the scan drives the cache
    {"lf_cache", "lf_scan"},
]


def module_of(path):
    m = path[:-2]
    return m[: -len("_internal")] if m.endswith("_internal") else m


def graph(src):
    files = []
    for d, _, names in os.walk(src):
        files += [os.path.join(d, n) for n in names if n.endswith((".c", ".h"))]
    by_base = {}
    for f in files:
        by_base.setdefault(os.path.basename(f), f)
    deps = collections.defaultdict(set)
    for f in files:
        a = module_of(os.path.relpath(f, src))
        deps[a]
        with open(f, encoding="utf-8") as fh:
            for line in fh:
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                inc = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
                if not os.path.exists(inc):
                    inc = by_base.get(os.path.basename(m.group(1)))
                if not inc:
                    continue  # a dependency's header (tree-sitter, cJSON)
                b = module_of(os.path.relpath(inc, src))
                if a != b:
                    deps[a].add(b)
    return deps


def cycles(deps):
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in sorted(deps):
        if root in index:
            continue
        work = [(root, iter(sorted(deps[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(deps[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.add(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(comp)
    return out


def main():
    src = os.path.join(sys.argv[1], "analyzer", "src")
    bad = 0
    for comp in cycles(graph(src)):
        if any(comp <= known for known in KNOWN):
            continue
        bad += 1
        print("include cycle: " + " <-> ".join(sorted(comp)))
    if bad:
        print(f"{bad} include cycle(s) outside the known list")
        return 1
    print("no include cycles beyond the known ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
