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
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accuracy_suite import check  # noqa: E402

PREFIX = "/usr/lib/python3/dist-packages"


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tool, root, work = sys.argv[1:4]
    rc = subprocess.run([os.path.join(root, "scripts/realpkgs.sh"),
                         os.path.join(root, "tests/accuracy/packages.txt"), work]).returncode
    if rc != 0:
        sys.exit(f"could not fetch the corpus (realpkgs.sh exit {rc})")
    check(tool, os.path.join(work, "pkgs"), os.path.join(root, "tests/accuracy/expected.tsv"), "corpus", PREFIX)


if __name__ == "__main__":
    main()
