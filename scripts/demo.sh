#!/usr/bin/env bash
# The main job on the bundled fixtures: build, scan (findings), then the fan-out
# fix over the eight integrations: the diff of every safe fix (LF101's swaps the
# unlocked Windows fallback for lockrt and vendors the binding), and the summary
# per integration; then the same fan-out applied to a copy of the integrations,
# verified by each one's own pytest suite (`--verify`: an integration whose tests
# fail after its fixes is restored). Exit status is the scan's: 1 means findings
# were shown.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/bootstrap.sh" demo
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
patch="$build/fanout.diff"
echo "== lockfix fix fixtures/integrations --diff   (full patch: $patch)"
set +e
"$lockfix" fix fixtures/integrations --diff >"$patch" 2>"$build/fanout.log"
fix_rc=$?
set -e
# The rewrites; the vendored copies of runtime/python/lockrt.py come last in
# the patch (one per patched package) and are only counted here.
sed '/^--- \/dev\/null$/,$d' "$patch"
echo "(+ $(grep -c '^--- /dev/null$' "$patch" || true) new files: the vendored lockrt binding, in $patch)"
echo
cat "$build/fanout.log"
if [ "$fix_rc" -ge 2 ]; then
  echo "lockfix fix failed (exit $fix_rc)" >&2
  exit "$fix_rc"
fi
echo
copy="$build/demo-integrations"
verify='/usr/bin/python3 -m pytest -q -p no:cacheprovider'
echo "== lockfix fix $copy --apply --verify '$verify'"
echo "   (a copy of fixtures/integrations; each integration's tests run before and after its fixes)"
rm -rf "$copy"
cp -R fixtures/integrations "$copy"
set +e
PYTHONDONTWRITEBYTECODE=1 "$lockfix" fix "$copy" --apply --verify "$verify" 2>&1 | grep -v '^fixed '
verify_rc=${PIPESTATUS[0]}
set -e
if [ "$verify_rc" -ge 2 ]; then
  echo "lockfix fix --verify failed (exit $verify_rc)" >&2
  exit "$verify_rc"
fi
exit "$scan_rc"
