#!/usr/bin/env bash
# The main job on the bundled fixtures: build, scan (findings), then the diff of
# the available fixes. Exit status is the scan's: 1 means findings were shown.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/bootstrap.sh" build
build=${LOCKFIX_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DLOCKFIX_BUILD_TESTS=OFF -DLOCKFIX_SANITIZE=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target lockfix >/dev/null
lockfix="$build/analyzer/lockfix"
cd "$root"
echo "== lockfix scan fixtures/"
set +e
"$lockfix" scan fixtures/
scan_rc=$?
set -e
echo
echo "== lockfix fix fixtures/ --diff"
"$lockfix" fix fixtures/ --diff || true
exit "$scan_rc"
