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
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accuracy_suite import check  # noqa: E402


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


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tool, root, work = sys.argv[1:4]
    check(tool, stage(root, work), os.path.join(root, "tests/accuracy/expected-npm.tsv"), "npm corpus")


if __name__ == "__main__":
    main()
