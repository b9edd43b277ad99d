#!/usr/bin/env bash
# The team's blind-labelled genre corpus (tests/accuracy/genre/*.json): real
# files of agent hooks and plugins, CLIs, daemons and caches from public
# repositories, each labelled before lockfix ran on it. Only the manifests are
# committed (repo, commit, path, expected lines with reasons, negatives); the
# files are public third-party code, rebuilt here from fetched mirrors and
# never written into this tree. Not part of CI: it needs the mirrors.
#
#   scripts/genre-corpus.sh MIRRORS_DIR OUT [--lockfix BIN] [--scorer SCORE_PY]
#
# MIRRORS_DIR holds one git directory per repository at <owner>+<name>/repo
# (what the search tool's `fetch github:owner/name` brings). OUT receives
# OUT/<set>/<file>, OUT/<set>/MANIFEST.json and OUT/<set>.report.json for each
# set, then the scorer's table per set (default scorer: the shared corpus's
# score.py beside this checkout).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mir=${1:?usage: genre-corpus.sh MIRRORS_DIR OUT [--lockfix BIN] [--scorer SCORE_PY]}
out=${2:?usage: genre-corpus.sh MIRRORS_DIR OUT [--lockfix BIN] [--scorer SCORE_PY]}
shift 2
lockfix=$root/build/analyzer/lockfix
scorer=$root/../shared/corpus/score.py
while [ $# -gt 0 ]; do
  case $1 in
    --lockfix) lockfix=$2; shift 2 ;;
    --scorer) scorer=$2; shift 2 ;;
    *) echo "genre-corpus.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
case $out in "$root"/*) echo "genre-corpus.sh: OUT must be outside the source tree (public code)" >&2; exit 2 ;; esac
for set in python typescript; do
  man=$root/tests/accuracy/genre/$set.json
  mkdir -p "$out/$set"
  cp "$man" "$out/$set/MANIFEST.json"
  /usr/bin/python3 - "$man" "$mir" "$out/$set" <<'PY'
import json, os, subprocess, sys
man, mir, dst = sys.argv[1:4]
entries = json.load(open(man))
missing = 0
for e in entries:
    git = os.path.join(mir, e["repo"].replace("/", "+"), "repo")
    try:
        data = subprocess.run(["git", "--git-dir", git if os.path.isdir(os.path.join(git, "objects")) else os.path.join(git, ".git"),
                               "show", f'{e["commit"]}:{e["path"]}'], capture_output=True, check=True).stdout
    except (subprocess.CalledProcessError, OSError):
        missing += 1
        print(f"missing (fetch github:{e['repo']} first): {e['commit'][:10]} {e['path']}", file=sys.stderr)
        continue
    with open(os.path.join(dst, e["file"]), "wb") as f:
        f.write(data)
print(f"{dst}: {len(entries) - missing} of {len(entries)} files")
PY
  "$lockfix" scan "$out/$set" --no-config --no-cache --format json -o "$out/$set.report.json" || true
  echo "== $set"
  /usr/bin/python3 "$scorer" "$out/$set.report.json" --manifest "$out/$set/MANIFEST.json"
done
