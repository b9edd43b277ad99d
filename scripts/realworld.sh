#!/usr/bin/env bash
# The fan-out fix on the real target tree (not part of CI: it needs the tree).
#
#   scripts/realworld.sh SOURCE [realworld.py options]
#
# SOURCE: a checkout of vectorize-io/hindsight (or its hindsight-integrations
# directory), or its git directory (commit da9a588c7 is exported from it).
# Builds lockfix and lockrt if needed, then runs scripts/realworld.py: each
# integration's own pytest suite before and after `lockfix fix --apply`, and
# real-process lost-update checks through each patched integration's own
# increment_turn_count with the Windows path forced. Nothing of the tree is
# copied into this repository; the scratch copy is printed at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
"$root/scripts/bootstrap.sh" test
build=${LOCKFIX_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target lockfix lockrt >/dev/null
exec /usr/bin/python3 "$root/scripts/realworld.py" "$@" \
  --lockfix "$build/analyzer/lockfix" --library "$build/runtime/liblockrt.so"
