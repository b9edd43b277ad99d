#!/usr/bin/env python3
"""Fail when a check or a fix generator touches the file system directly.

`scan`'s result cache keeps a file's findings, fixes included, only with the
state of every other object its analysis looked at (analyzer/src/lf_deps.h).
That holds only if every such look goes through lf_deps's wrappers
(lf_deps_lstat, lf_deps_opendir, lf_deps_fopen_read): a direct stat(),
opendir() or fopen() in checks/, fixes/ or sem/ would make a cached report go
stale silently. Applying a fix (lf_fix.c) is not analysis and is not listed.

Usage: check_fix_file_access.py SOURCE_DIR
"""
import os
import re
import sys

DIRS = ["analyzer/src/checks", "analyzer/src/fixes", "analyzer/src/sem"]
CALLS = re.compile(r"(?<![\w.>])(stat|lstat|fstatat|access|faccessat|open|openat|fopen|opendir|fdopendir|scandir|"
                   r"readlink|readlinkat|realpath|glob|nftw|ftw)\s*\(")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"", re.S)


def main():
    root = sys.argv[1]
    bad = []
    for d in DIRS:
        for name in sorted(os.listdir(os.path.join(root, d))):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, d, name)
            text = open(path, encoding="utf-8").read()
            # Blank comments and string literals, keeping line numbers.
            code = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
            for m in CALLS.finditer(code):
                line = code.count("\n", 0, m.start()) + 1
                bad.append(f"{d}/{name}:{line}: {m.group(1)}() outside lf_deps (use lf_deps_lstat/opendir/fopen_read)")
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print(f"no direct file-system access in {', '.join(DIRS)}")


if __name__ == "__main__":
    main()
