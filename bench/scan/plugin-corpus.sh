#!/usr/bin/env bash
# The plugin-code corpus of the scan bench: every repository of the blind-labelled
# genre corpus (tests/accuracy/genre/*.json: agent hooks and plugins, CLIs, daemons,
# MCP servers), whole, at the commit its manifest pins. This is the code lockfix is
# for, where most files say `open`, `json` or `lock` and so pass the prefilters.
# Public third-party code: OUT must be outside this tree, and nothing of it is
# committed. Then: bench/scan/run.sh --corpus OUT [--lang ts].
#
#   bench/scan/plugin-corpus.sh MIRRORS_DIR OUT
#
# MIRRORS_DIR holds one git directory per repository at <owner>+<name>/repo (what
# the search tool's `fetch github:owner/name` brings). A repository without a
# mirror, or whose mirror lacks the pinned commit, is listed and left out.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mir=${1:?usage: plugin-corpus.sh MIRRORS_DIR OUT}
out=${2:?usage: plugin-corpus.sh MIRRORS_DIR OUT}
case $(cd "$(dirname "$out")" && pwd)/$(basename "$out") in
  "$root"/*) echo "plugin-corpus.sh: OUT must be outside the source tree (public code)" >&2; exit 2 ;;
esac
mkdir -p "$out"
/usr/bin/python3 - "$root/tests/accuracy/genre" "$mir" "$out" <<'PY'
import json, os, subprocess, sys
genre, mir, out = sys.argv[1:4]
pins = {}
for name in sorted(os.listdir(genre)):
    if name.endswith(".json"):
        for e in json.load(open(os.path.join(genre, name), encoding="utf-8")):
            pins.setdefault(e["repo"], e["commit"])  # a repository's first pin
made = missing = 0
for repo, commit in sorted(pins.items()):
    key = repo.replace("/", "+")
    gitdir, dst = os.path.join(mir, key, "repo"), os.path.join(out, key)
    if not os.path.isdir(os.path.join(gitdir, "objects")):  # some fetches hold it one level down
        gitdir = os.path.join(gitdir, ".git")
    if os.path.isdir(dst):
        made += 1
        continue
    if not os.path.isdir(gitdir):
        print(f"plugin-corpus: no mirror for {repo}", file=sys.stderr)
        missing += 1
        continue
    tmp = dst + ".partial"
    subprocess.run(["rm", "-rf", tmp], check=True)
    os.makedirs(tmp)
    arch = subprocess.Popen(["git", "--git-dir", gitdir, "archive", "--format=tar", commit],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    tar = subprocess.run(["tar", "-x", "-C", tmp], stdin=arch.stdout)
    arch.stdout.close()
    if arch.wait() != 0 or tar.returncode != 0:
        print(f"plugin-corpus: {repo}: commit {commit} not in the mirror", file=sys.stderr)
        subprocess.run(["rm", "-rf", tmp], check=True)
        missing += 1
        continue
    os.rename(tmp, dst)
    made += 1
print(f"plugin-corpus: {made} repositories in {out}, {missing} left out")
PY
